// The side's tabs (Design, Gallery, Export, Match, Saved), as the ARIA tabs pattern has
// them: one tab stop, arrow keys and Home/End move between tabs, and each shows its panel.
"use strict";

(() => {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  const listeners = [];

  /** Shows the panel of tab `name` ("design", "gallery", ...); focuses the tab when asked. */
  function select(name, focus = false) {
    for (const tab of tabs) {
      const on = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      document.getElementById(tab.getAttribute("aria-controls")).hidden = !on;
      if (on && focus) tab.focus();
    }
    const panels = document.querySelector(".panels");
    if (panels) panels.scrollTop = 0;
    for (const listener of listeners) listener(name);
  }

  for (const tab of tabs) {
    tab.addEventListener("click", () => select(tab.dataset.tab));
    tab.addEventListener("keydown", (e) => {
      const index = tabs.indexOf(tab);
      const to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      select(tabs[(to + tabs.length) % tabs.length].dataset.tab, true);
    });
  }

  Object.assign(window.studio, { showTab: select, onTab: (listener) => listeners.push(listener) });
  Object.defineProperty(window.studio, "tab", {
    get: () => tabs.find((t) => t.getAttribute("aria-selected") === "true").dataset.tab });
})();
