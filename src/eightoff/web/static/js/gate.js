// The page's first script (a classic one, in <head>, so that it runs before the table is
// drawn): a browser without the table's token cannot use it, so it goes to /access, the
// page that says how to get in, with the link's query (no token in it: there is none).
// The token comes in the address `eightoff play` opens (?token=…) and is kept in this
// origin's localStorage (api.js); a link's deal waits there too (eightoff.pending_link),
// for the page that opens once the token has come.
(function gate() {
  var query = new URLSearchParams(window.location.search);
  if (query.get("token")) return;
  try {
    if (window.localStorage.getItem("eightoff.token")) return;
  } catch (e) {
    /* no storage (a browser's settings): no token kept either */
  }
  var link = ["variant", "deal", "cells", "retrieval", "strict"].some(function (key) {
    return query.has(key);
  });
  try {
    if (link) window.localStorage.setItem("eightoff.pending_link", JSON.stringify({ search: window.location.search, at: Date.now() }));
  } catch (e) {
    /* the access page shows the link to open again */
  }
  window.location.replace("/access" + window.location.search);
})();
