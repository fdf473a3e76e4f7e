// Colours from an image: the image (chosen or dropped on the page) is shown in a dialog with
// the colours `fluidgradient palette` finds in it (POST /v1/palette, k-means in OKLab), each
// with a check box to keep or leave it, a count to find more or fewer, and a click on the
// image to pick a colour it missed. Nothing changes until "Use these colours"; that is one
// edit, undone as any other.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const dialog = $("palette-dialog"), canvas = $("palette-image"), list = $("palette-swatches");
  const countField = $("palette-count"), note = $("palette-note");
  let png = null; // the image as PNG, at most 512 pixels a side, as sent to the service
  let found = []; // [{ color, keep, picked }]

  async function openFile(file) {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, 512 / Math.max(bitmap.width, bitmap.height));
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    png = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
    found = [];
    countField.value = String(Math.min(8, Math.max(2, (studio.preset().colors || []).length)));
    if (!dialog.open) dialog.showModal();
    await extract();
  }

  /** Asks the service for the image's colours at the chosen count; keeps the picked ones. */
  async function extract() {
    const count = Math.min(16, Math.max(1, Math.round(Number(countField.value)) || 5));
    countField.value = String(count);
    note.textContent = "Finding colours…";
    try {
      const { colors } = await FG.api.json("POST", `/v1/palette?count=${count}`, { body: png });
      found = [...colors.map((color) => ({ color, keep: true, picked: false })), ...found.filter((s) => s.picked)];
      note.textContent = `${colors.length} colours found. Click the image to pick one it missed.`;
    } catch (error) {
      note.textContent = `Could not take colours from this image: ${error.problem?.detail || error.message}`;
    }
    render();
  }

  function render() {
    list.replaceChildren(...found.map((swatch, index) => {
      const box = FG.dom.el("input", { type: "checkbox", checked: swatch.keep, "data-swatch": index });
      box.addEventListener("change", () => { swatch.keep = box.checked; });
      const chip = FG.dom.el("span", { class: "swatch", "aria-hidden": "true" });
      chip.style.background = FG.model.css(swatch.color);
      return FG.dom.el("li", {}, FG.dom.el("label", {}, [box, chip,
        FG.dom.el("code", {}, swatch.color), swatch.picked ? FG.dom.el("span", { class: "hint" }, "picked") : ""]));
    }));
  }

  /** A click on the image adds the colour under the pointer. */
  canvas.addEventListener("click", (e) => {
    const rect = canvas.getBoundingClientRect();
    const x = Math.min(canvas.width - 1, Math.floor(((e.clientX - rect.left) / rect.width) * canvas.width));
    const y = Math.min(canvas.height - 1, Math.floor(((e.clientY - rect.top) / rect.height) * canvas.height));
    const [r, g, b] = canvas.getContext("2d", { willReadFrequently: true }).getImageData(x, y, 1, 1).data;
    const color = FG.model.hex([r, g, b, 255]);
    found.push({ color, keep: true, picked: true });
    note.textContent = `Picked ${color}.`;
    render();
  });

  $("palette-extract").addEventListener("click", extract);
  countField.addEventListener("change", extract);
  dialog.addEventListener("close", () => {
    if (dialog.returnValue !== "ok") return;
    const colors = found.filter((s) => s.keep).map((s) => s.color);
    if (colors.length) studio.edit("colors", colors);
  });
  $("palette-apply").addEventListener("click", (e) => {
    if (found.some((s) => s.keep)) return;
    e.preventDefault();
    note.textContent = "Keep at least one colour, or Cancel.";
  });

  /** The Colours section's row: a button that opens a file chooser, and a word about dropping. */
  function row() {
    const input = FG.dom.el("input", { type: "file", accept: "image/*", id: "palette-file", hidden: true,
      tabindex: "-1" });
    input.addEventListener("change", () => { if (input.files[0]) openFile(input.files[0]); input.value = ""; });
    const open = FG.dom.button("Take blob colours from an image", "Colours from an image…", () => input.click(),
      { class: "ghost small", "data-open": "palette" });
    open.removeAttribute("aria-label");
    return FG.dom.el("div", { class: "palette-row" }, [input, open,
      FG.dom.el("span", { class: "hint" }, "or drop an image on the page")]);
  }

  document.addEventListener("dragover", (e) => {
    if (!e.dataTransfer.types.includes("Files")) return;
    e.preventDefault();
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", (e) => { if (!e.relatedTarget) document.body.classList.remove("dropping"); });
  document.addEventListener("drop", (e) => {
    document.body.classList.remove("dropping");
    const file = [...(e.dataTransfer.files || [])].find((f) => f.type.startsWith("image/"));
    if (!file || e.target.closest("[data-target-drop]")) return;
    e.preventDefault();
    openFile(file);
  });

  Object.assign(window.studio, { paletteRow: row, openPalette: openFile });
})();
