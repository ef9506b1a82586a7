// The picture of a deal (GET /v1/games/{id}/deals/{n}/diagram.svg) for the viewer: a link for
// the deal on screen. The picture shows what the history's own view shows: a seat's view is
// fetched with its token and opened as a local copy (a link cannot carry the token); any other
// view is a plain link anyone may share.

/** Returns the path of deal *deal*'s picture in game *gameId*, as *view* sees it. */
export function diagramPath(gameId, deal, view = null) {
  const query = view === "auditor" ? "?view=auditor" : "";
  return `/v1/games/${encodeURIComponent(gameId)}/deals/${deal}/diagram.svg${query}`;
}

/**
 * Points *link* at the picture of deal *deal* of the game the history came from (*source*:
 * { gameId, view, token }, or null for a pasted history, which has no picture); hides it when
 * there is no deal on screen.
 */
export function showDiagramLink(link, source, deal) {
  if (!source || !deal) {
    link.hidden = true;
    return;
  }
  const path = diagramPath(source.gameId, deal, source.view);
  link.href = path;
  link.dataset.deal = String(deal);
  link.hidden = false;
  link.onclick = source.token ? (event) => {
    event.preventDefault();
    openWithToken(path, source.token);
  } : null;
}

async function openWithToken(path, token) {
  const response = await fetch(path, {
    headers: { Authorization: `Bearer ${token}` }, cache: "no-store", credentials: "omit",
  });
  if (!response.ok) return;
  const url = URL.createObjectURL(await response.blob());
  window.open(url, "_blank", "noopener");
}
