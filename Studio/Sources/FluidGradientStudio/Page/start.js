// The start: the controls built, the preset list fetched once for the gallery, the preset menu
// and Match, and the first design: the one a shared link holds, else the default preset.
"use strict";

(async () => {
  studio.build({ palette: studio.paletteRow() });
  let initial = null;
  try {
    initial = FG.model.fromFragment(location.hash);
  } catch (error) {
    studio.showProblem({ reason: `this link's preset could not be read (${error.message}); showing the default` });
  }
  try {
    const presets = await studio.gallery.load();
    studio.matchPresets(presets);
    studio.start(initial || (await FG.api.json("GET", "/v1/presets/default")));
  } catch (error) {
    if (initial) studio.start(initial);
    else studio.showProblem(error.problem || { detail: `the render service did not answer (${error.message})` });
  }
})();
