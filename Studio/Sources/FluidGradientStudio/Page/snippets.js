// Snippets: the Swift code that renders the design with the library (the preset's JSON in a
// raw string, a still and the video), and the web bundle's HTML snippet: its `<style>` and the
// block of its `index.html`, read from the bundle's zip once a bundle is rendered (the codecs
// strings in it are read from the bundle's own files, so no snippet is given before).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let bundleHTML = null; // the snippet of the last bundle rendered, and the design it was of
  let bundleDesign = null;

  function swift(preset) {
    const name = FG.dom.safeName(preset.name);
    const json = JSON.stringify(preset, null, 2);
    return [
      "import FluidGradientIO",
      "import Foundation",
      "",
      `// ${preset.name}${preset.description ? ": " + preset.description.replace(/\n/g, " ") : ""}`,
      "let json = #\"\"\"",
      json,
      "\"\"\"#",
      `let preset = try Preset(json: Data(json.utf8), file: "${name}.json")`,
      "",
      "// The frame at 2 s, as `fluidgradient render --time 2` writes it.",
      `try preset.frame(at: 2).pngData().write(to: URL(fileURLWithPath: "${name}.png"))`,
      "",
      "// The whole animation, encoded smaller where the blur allows, as `render` does.",
      `try await preset.write(to: .video(path: "${name}.mp4", container: .mp4), encodeSize: .auto)`,
      "",
    ].join("\n");
  }

  /** The entries of a zip of stored (uncompressed) files, as the service writes bundles. */
  function storedEntries(bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const entries = new Map();
    let at = 0;
    while (at + 30 <= bytes.length && view.getUint32(at, true) === 0x04034b50) {
      const method = view.getUint16(at + 8, true), size = view.getUint32(at + 18, true);
      const nameLength = view.getUint16(at + 26, true), extra = view.getUint16(at + 28, true);
      const name = new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength));
      const start = at + 30 + nameLength + extra;
      if (method === 0) entries.set(name, bytes.subarray(start, start + size));
      at = start + size;
    }
    return entries;
  }

  /** The snippet of a bundle's page: its `<style>` and what its body holds. */
  function snippetOf(page) {
    const style = /<style>[\s\S]*?<\/style>/.exec(page);
    const body = /<body>\n?([\s\S]*?)<\/body>/.exec(page);
    return [style ? style[0] : "", body ? body[1].trimEnd() : page].filter(Boolean).join("\n");
  }

  async function fromBundle(blob) {
    const entries = storedEntries(new Uint8Array(await blob.arrayBuffer()));
    const page = entries.get("index.html");
    if (!page) return;
    bundleHTML = snippetOf(new TextDecoder().decode(page));
    bundleDesign = studio.designId;
    showHTML();
  }

  function showHTML() {
    const current = bundleHTML && bundleDesign === studio.designId;
    $("html-snippet").hidden = !bundleHTML;
    $("html-snippet").textContent = bundleHTML || "";
    $("copy-html").hidden = !bundleHTML;
    $("html-help").textContent = !bundleHTML
      ? "Render the web bundle (Video or bundle, above) and download it: its page's snippet appears here, with the "
        + "codecs strings read from its files. Put the bundle's files beside the page."
      : current ? "From the bundle you rendered of this design. Put the bundle's files beside the page."
        : "From the bundle of an earlier version of this design: render the bundle again for this one.";
  }

  function showSwift() { $("swift-snippet").textContent = swift(studio.preset()); }

  $("copy-swift").addEventListener("click", async () => {
    await FG.dom.copy(swift(studio.preset()));
    FG.dom.flash($("swift-note"), "Swift copied.");
  });
  $("copy-html").addEventListener("click", async () => {
    await FG.dom.copy(bundleHTML || "");
    FG.dom.flash($("html-note"), "HTML copied.");
  });
  studio.onDesign(() => { showSwift(); showHTML(); });
  showHTML();

  window.studio.snippets = { swift, fromBundle, snippetOf, storedEntries, html: () => bundleHTML };
})();
