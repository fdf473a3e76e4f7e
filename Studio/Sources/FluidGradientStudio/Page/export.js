// Export: the preset as a JSON file, the equivalent `fluidgradient render` command, and a
// link that holds the whole preset in its fragment.
"use strict";

(() => {
  const commandBox = document.getElementById("command");
  const note = document.getElementById("export-note");

  /** Puts `text` on the clipboard (the selection and copy command where the async API is refused). */
  async function copy(text, what) {
    try {
      await navigator.clipboard.writeText(text);
    } catch (_) {
      const scratch = FG.dom.el("textarea", { class: "visually-hidden" }, text);
      document.body.append(scratch);
      scratch.select();
      document.execCommand("copy");
      scratch.remove();
    }
    note.textContent = `${what} copied.`;
    setTimeout(() => { if (note.textContent === `${what} copied.`) note.textContent = ""; }, 2500);
  }

  const fileName = () => `${(studio.preset().name || "studio").replace(/[^A-Za-z0-9._-]+/g, "-")}`;
  const jsonText = () => JSON.stringify(studio.preset(), null, 2) + "\n";
  const command = () => FG.model.command(studio.preset(), `${fileName()}.png`);
  const shareURL = () => `${location.origin}${location.pathname}#${FG.model.fragment(studio.preset())}`;

  function download() {
    const url = URL.createObjectURL(new Blob([jsonText()], { type: "application/json" }));
    const link = FG.dom.el("a", { href: url, download: `${fileName()}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  document.getElementById("download-json").addEventListener("click", download);
  document.getElementById("copy-command").addEventListener("click", () => copy(command(), "Command"));
  document.getElementById("share").addEventListener("click", () => copy(shareURL(), "Link"));
  studio.onDesign(() => { commandBox.textContent = command(); });

  Object.assign(window.studio, { jsonText, command, shareURL });
})();
