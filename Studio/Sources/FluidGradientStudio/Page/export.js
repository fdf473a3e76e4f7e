// Export: the preset as a JSON file, the equivalent `fluidgradient render` command (shown so
// that lines break only between words, never inside a flag or a colour list), and a link that
// holds the whole preset in its fragment, said copied next to the top bar's button.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const commandBox = $("command");

  const fileName = () => FG.dom.safeName(studio.preset().name);
  const jsonText = () => JSON.stringify(studio.preset(), null, 2) + "\n";
  const command = () => FG.model.command(studio.preset(), `${fileName()}.png`);
  const shareURL = () => `${location.origin}${location.pathname}#${FG.model.fragment(studio.preset())}`;

  /**
   * The command as words, each kept whole: a line breaks only at a space, or after a comma of a
   * colour list or a gradient's stops.
   */
  function showCommand(text) {
    const nodes = [];
    text.split(" ").forEach((word, i) => {
      if (i > 0) nodes.push(" ");
      const parts = word.split(",");
      const span = FG.dom.el("span", { class: "word" });
      parts.forEach((part, j) => {
        span.append(FG.dom.el("span", { class: "part" }, j < parts.length - 1 ? part + "," : part));
        if (j < parts.length - 1) span.append(FG.dom.el("wbr"));
      });
      nodes.push(span);
    });
    commandBox.replaceChildren(...nodes);
  }

  $("download-json").addEventListener("click", () => {
    FG.dom.download(new Blob([jsonText()], { type: "application/json" }), `${fileName()}.json`);
    FG.dom.flash($("top-note"), `Downloaded ${fileName()}.json.`);
  });
  $("copy-command").addEventListener("click", async () => {
    await FG.dom.copy(command());
    FG.dom.flash($("export-note"), "Command copied.");
  });
  $("share").addEventListener("click", async () => {
    await FG.dom.copy(shareURL());
    FG.dom.flash($("top-note"), "Link copied.");
  });
  studio.onDesign(() => showCommand(command()));

  Object.assign(window.studio, { jsonText, command, shareURL, fileName });
})();
