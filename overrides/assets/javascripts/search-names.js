// Names first: runs in Material's search worker, before Material's own code (dsref/site/hooks.py writes the two
// into one file, the worker every page loads).
//
// The search index's config carries `names` (dsref/site/names.py): for each name a reader may type for a thing
// (an option's path or key, a finding code, a glossary term in either language), the search entries it leads to,
// best first, by their place in the index's `docs`. A query that is such a name gets those entries first, each with
// the other matches on its page behind it; so does a query of one option's name and glossary terms around it
// ("混合精度 bf16": `terms` lists the glossary's spellings); any other query gets Material's results unchanged.
// Every entry put first carries the words its page highlights (`?h=`): the query's words the entry has, else the
// name it shows (the Chinese name of an option's heading, else its key). Nothing here can stop a search: on any
// error the worker answers with Material's results.
(() => {
  const SETUP = 0;
  const QUERY = 2;
  const RESULT = 3;
  const FIRST = 1e6; // above any score Material gives
  const HAN = "\\u3400-\\u9fff\\uf900-\\ufaff";
  const SPACE_BY_HAN = new RegExp(`(?<=[${HAN}])\\s+|\\s+(?=[${HAN}])`, "g");
  const QUOTES = /^[`"'“”‘’「」\s]+|[`"'“”‘’「」\s]+$/g;

  let names = {};
  let terms = new Set();
  let separator = /[\s\-]+/;
  let entries = [];
  const docs = new Map();
  const queries = [];

  // As dsref.site.names.normalize: NFKC, lower case, no quotes around it, one space, none beside Chinese.
  const normalize = (query) =>
    String(query).normalize("NFKC").toLowerCase().trim().replace(QUOTES, "").replace(/\s+/g, " ").replace(SPACE_BY_HAN, "");

  const pageOf = (location) => location.split("#")[0];

  addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === SETUP) {
      names = message.data.config.names || {};
      terms = new Set(message.data.config.terms || []);
      separator = new RegExp(message.data.config.separator || "[\\s\\-]+");
      entries = message.data.docs;
      for (const doc of entries) docs.set(doc.location, doc);
    } else if (message.type === QUERY) {
      queries.push(message.data);
    }
  });

  const own = (name) => Object.prototype.hasOwnProperty.call(names, name);
  const CUT = new RegExp(`\\s+|(?<=[${HAN}])(?=[^${HAN}\\s])|(?<=[^${HAN}\\s])(?=[${HAN}])`);

  // The entries a query names: the whole query as a name, else the one part of it that names an option or a code
  // when every other part is a glossary term (or they are one together).
  const placesOf = (query) => {
    const whole = normalize(query);
    if (own(whole)) return names[whole];
    const parts = String(query).normalize("NFKC").split(CUT).map(normalize).filter((part) => part !== "");
    if (parts.length < 2) return [];
    const named = parts.filter((part, at) => {
      if (!own(part)) return false;
      const first = entries[names[part][0]];
      if (first === undefined || !/^(reference|rules)\//.test(first.location)) return false;
      const rest = parts.filter((_, other) => other !== at);
      return rest.every((word) => terms.has(word)) || terms.has(normalize(rest.join(" ")));
    });
    return named.length === 1 ? names[named[0]] : [];
  };

  const plain = (html) =>
    String(html).replace(/<span hidden>.*?<\/span>/g, " ").replace(/<[^>]+>/g, " ").replace(/\u200b/g, "");

  // What the page of an entry highlights: the query's words the entry has, else the name it shows.
  const highlighted = (query, doc) => {
    const text = plain(`${doc.title} ${doc.text}`).toLowerCase();
    const words = String(query).toLowerCase().split(separator).filter((word) => word !== "" && text.includes(word));
    if (words.length > 0) return Object.fromEntries(words.map((word) => [word, true]));
    const title = plain(doc.title).replace(/\s+/g, " ").trim();
    const shown = title.includes(" · ") ? title.split(" · ").pop() : "";
    const name = shown || (doc.location.includes("#") ? doc.location.split("#").pop().split(".").pop() : title);
    return name === "" ? {} : { [name]: true };
  };

  const namesFirst = (query, result) => {
    const places = placesOf(query);
    if (places.length === 0) return result;
    const rest = [...result.items];
    const first = [];
    places.forEach((entry, rank) => {
      const doc = entries[entry];
      if (doc === undefined) return;
      const location = doc.location;
      const page = pageOf(location);
      let group = first.find((items) => pageOf(items[0].location) === page);
      if (group === undefined) {
        const at = rest.findIndex((items) => items.some((item) => pageOf(item.location) === page));
        group = at >= 0 ? rest.splice(at, 1)[0] : [];
        if (!group.some((item) => item.location === page) && docs.has(page)) {
          group.push({ ...docs.get(page), score: 0, terms: {} });
        }
        first.push(group);
      }
      const at = group.findIndex((item) => item.location === location);
      const item = at >= 0 ? group.splice(at, 1)[0] : { ...doc, terms: {} };
      group.push({ ...item, score: FIRST - rank });
      group.sort((a, b) => b.score - a.score);
    });
    for (const group of first) {
      for (const item of group) {
        if (!Object.values(item.terms || {}).some(Boolean)) item.terms = highlighted(query, item);
      }
    }
    return { ...result, items: [...first, ...rest] };
  };

  const post = self.postMessage.bind(self);
  self.postMessage = (message, ...rest) => {
    if (message !== null && typeof message === "object" && message.type === RESULT) {
      const query = queries.shift();
      try {
        message = { ...message, data: namesFirst(query, message.data) };
      } catch (error) {
        console.warn("dsref: names first failed; Material's results as they are", error);
      }
    }
    post(message, ...rest);
  };
})();
