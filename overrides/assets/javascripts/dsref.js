// dsref's own behaviour on top of Material for MkDocs (loaded on every page by extra_javascript in mkdocs.yml).

// The language switcher leads to the same page in the other language; take the reader to the same place on it
// too. The anchors of both languages are the same (an option's dotted path, a heading's slug: dsref/site/hooks.py
// makes sure), so the link gets the anchor of the reader's place when it is followed, by mouse or keyboard: the
// heading of the URL's anchor while it is still near the top of the screen, else the nearest heading above the
// top of the screen (none at the top of the page).
const readersPlace = () => {
  const header = document.querySelector(".md-header");
  const top = (header === null ? 0 : header.getBoundingClientRect().bottom) + 8;
  if (location.hash !== "") {
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    const at = target === null ? null : target.getBoundingClientRect().top;
    if (at !== null && at >= -1 && at < window.innerHeight / 3) return location.hash;
  }
  let found = null;
  for (const heading of document.querySelectorAll("article :is(h2, h3, h4, h5, h6)[id]")) {
    if (heading.getBoundingClientRect().top > top) break;
    found = heading;
  }
  return found === null ? "" : `#${found.id}`;
};
document.addEventListener(
  "click",
  (event) => {
    const link = event.target instanceof Element ? event.target.closest("a.md-select__link[hreflang]") : null;
    if (link === null) return;
    const target = new URL(link.href);
    target.hash = readersPlace();
    link.href = target.href;
  },
  true,
);

// Phones. A table wider than the screen scrolls inside its box (Material's .md-typeset__scrollwrap): it is put in a
// frame marked "dsref-wide", where the stylesheet keeps its first column in place and shows a cue at the edge that
// still hides columns ("dsref-at-end" once scrolled to the end). An option table (after an element marked
// "dsref-options": dsref/site/reference.py) becomes stacked rows on a narrow screen; its cells get their column's
// name (data-label) for the stylesheet to show. A config example whose documented key (on the highlighted line) is
// outside its box is scrolled to show it.
const headingNames = (heading) => {
  // The option a heading is about: its anchor's last key (the reference's anchors are dotted paths), and the last
  // key of each code span in it (a guide's "## `overlap_comm`: ...").
  const names = [heading.id.split(".").pop()];
  for (const code of heading.querySelectorAll("code")) names.push(code.textContent.trim().split(".").pop());
  return names;
};
const documentedKey = (line, heading) => {
  const keys = [...line.querySelectorAll(".nt")];
  if (keys.length <= 1) return keys[0] ?? null;
  const names = heading === undefined ? [] : headingNames(heading);
  return keys.find((key) => names.includes(key.textContent.replace(/^"|"$/g, ""))) ?? keys[keys.length - 1];
};
const showKeys = () => {
  const headings = [...document.querySelectorAll("article :is(h1, h2, h3, h4, h5, h6)[id]")];
  for (const code of document.querySelectorAll("article pre > code")) {
    const line = code.querySelector(".hll");
    if (line === null || code.scrollWidth <= code.clientWidth + 1 || code.scrollLeft > 0) continue;
    const heading = headings.filter((h) => h.compareDocumentPosition(code) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
    const key = documentedKey(line, heading);
    if (key === null) continue;
    const box = code.getBoundingClientRect();
    const at = key.getBoundingClientRect();
    const left = at.left - box.left;
    const right = left + at.width;
    if (left >= 0 && right <= code.clientWidth) continue;
    code.scrollLeft = Math.max(0, Math.min(left - 16, right - code.clientWidth + 48));
  }
};
const markWide = () => {
  for (const table of document.querySelectorAll("article :is(.dsref-options + table, .dsref-options + * table)")) {
    const labels = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, n) => cell.setAttribute("data-label", labels[n] ?? ""));
    }
  }
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
  showKeys();
};
const atEnd = (frame, scroller) =>
  frame.classList.toggle("dsref-at-end", scroller.scrollLeft + scroller.clientWidth >= scroller.scrollWidth - 1);
if (typeof document$ !== "undefined") document$.subscribe(() => requestAnimationFrame(markWide));
else window.addEventListener("load", markWide);
window.addEventListener("resize", () => requestAnimationFrame(markWide));
