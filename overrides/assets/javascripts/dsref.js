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

// Phones. A table wider than the screen scrolls inside its box (Material's .md-typeset__scrollwrap): it is put in a
// frame marked "dsref-wide", where the stylesheet keeps its first column in place and shows a cue at the edge that
// still hides columns ("dsref-at-end" once scrolled to the end). A config example whose documented line (the
// highlighted one) starts past the right edge of its box is scrolled to it.
const markWide = () => {
  for (const scroller of document.querySelectorAll("article .md-typeset__scrollwrap")) {
    let frame = scroller.parentElement;
    if (!frame.classList.contains("dsref-table")) {
      frame = document.createElement("div");
      frame.className = "dsref-table";
      scroller.replaceWith(frame);
      frame.append(scroller);
      scroller.addEventListener("scroll", () => atEnd(frame, scroller), { passive: true });
    }
    frame.classList.toggle("dsref-wide", scroller.scrollWidth > scroller.clientWidth + 1);
    atEnd(frame, scroller);
  }
  for (const line of document.querySelectorAll("article pre > code .hll")) {
    const code = line.closest("code");
    if (code.scrollWidth <= code.clientWidth + 1 || code.scrollLeft > 0) continue;
    const text = line.textContent;
    const start = text.length - text.trimStart().length;
    const node = document.createTreeWalker(line, NodeFilter.SHOW_TEXT).nextNode();
    if (node === null) continue;
    const range = document.createRange();
    range.setStart(node, Math.min(start, node.length));
    range.setEnd(node, Math.min(start + 1, node.length));
    const left = range.getBoundingClientRect().left - code.getBoundingClientRect().left;
    if (left > code.clientWidth / 2) code.scrollLeft = left - 16;
  }
};
const atEnd = (frame, scroller) =>
  frame.classList.toggle("dsref-at-end", scroller.scrollLeft + scroller.clientWidth >= scroller.scrollWidth - 1);
if (typeof document$ !== "undefined") document$.subscribe(() => requestAnimationFrame(markWide));
else window.addEventListener("load", markWide);
window.addEventListener("resize", () => requestAnimationFrame(markWide));
