// dsref's own behaviour on top of Material for MkDocs (loaded on every page by extra_javascript in mkdocs.yml).

// The language switcher leads to the same page in the other language; take the reader to the same place on it
// too. The anchors of both languages are the same (an option's dotted path, a heading's slug), so the fragment
// of this page's URL is carried over when a language link is followed, by mouse or keyboard.
document.addEventListener(
  "click",
  (event) => {
    const link = event.target instanceof Element ? event.target.closest("a.md-select__link[hreflang]") : null;
    if (link === null || location.hash === "") return;
    const target = new URL(link.href);
    target.hash = location.hash;
    link.href = target.href;
  },
  true,
);
