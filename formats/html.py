"""A recorded game as one self-contained web page that replays it (``carpet export FILE -o game.html``).

The page holds the SVG picture of the deal (:mod:`carpet.formats.svg`) and, for every event,
what changes in it: the slot values and caption fields that differ from the position before,
as computed by the engine after each event.  Its script (``replay.js``) only swaps those
values in, the way :func:`carpet.formats.svg.apply_slot` sets them here: no rule of any game
is written in JavaScript, and there is one drawing.  No network, no external script or font:
the file opens from disk.

Navigation: buttons and arrow keys step, Home/End jump, space plays (at the recorded clock's
pace, or faster), a slider, a click on an action, and the URL fragment ``#K`` or
``#event=K`` selects event K (0 = the deal); the page keeps the fragment up to date, so a
link names a position.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from carpet.core import Session, get_game
from carpet.core.position import Start

from . import svg
from .log_types import Log, LogError, header_deal

HERE = Path(__file__).resolve().parent
#: a pause between two events longer than this (after the speed-up) is cut to it when playing
LONGEST_PAUSE_MS = 10_000
#: the most events a page holds: a page carries every event's position (about 0.9 KB of memory
#: an event while it is made, and as much page), so 100,000 events is a page of about 90 MB that
#: a browser can still open; a longer log is refused before any of it is made
PAGE_EVENTS = 100_000


def frames(log: Log) -> tuple[Session, list[list]]:
    """The session at the end, and per event (0 = the deal) ``[slot changes, field changes]``:
    slot changes flat as ``[index, value, index, value, ...]``, field changes as ``{name: text}``.
    Frame 0 holds every slot and field."""
    session = Session(get_game(log.header.game), header_deal(log.header))
    total = len(log.events)
    text = session.variant.text
    out = []
    before_slots: list[str] | None = None
    before_fields: dict[str, str] = {}
    for k in range(total + 1):
        if k:
            session.act(*log.events[k - 1])
            note = f"after event {k} of {total}: {text(log.events[k - 1][0])}"
        else:
            note = f"the deal (of {total} events)"
        slots, fields = svg.values(session, note)
        if before_slots is None:
            slot_changes = [x for i, v in enumerate(slots) for x in (i, v)]
        else:
            slot_changes = [x for i, (a, b) in enumerate(zip(before_slots, slots)) if a != b for x in (i, b)]
        field_changes = {name: v for name, v in fields.items() if before_fields.get(name) != v}
        out.append([slot_changes, field_changes])
        before_slots, before_fields = slots, fields
    return session, out


def replay_page(log: Log, *, verified_by: str | None = None) -> bytes:
    """The page for a log.  ``verified_by``: the tool that verified the log (shown), or None.
    LogError for a log of more than :data:`PAGE_EVENTS` events."""
    if len(log.events) > PAGE_EVENTS:
        raise LogError(f"a replay page holds at most {PAGE_EVENTS:,} events (about 90 MB), and this log has "
                       f"{len(log.events):,}: export it to the text or JSON form instead", unreadable=True)
    first = Session(get_game(log.header.game), header_deal(log.header))
    picture = svg.draw(svg.board(first))
    end, data_frames = frames(log)
    slots0 = data_frames[0][0][1::2]
    picture.fill(slots0, data_frames[0][1])
    variant = end.variant
    events = [[variant.text(action), clock] for action, clock in log.events]
    data = {"events": events, "frames": data_frames, "longestPause": LONGEST_PAUSE_MS}
    title = f"{variant.id} deal {end.deal.both_forms}"
    result = {"won": "won", "lost": "lost"}.get(end.status, "still playing")
    redeals = "∞" if end.redeals_left is None else str(end.redeals_left)
    summary = [
        ("result", result), ("score", str(end.score)), ("moves", str(end.moves)),
        ("events", str(len(log.events))), ("clock", svg.clock_text(end.clock_ms)), ("redeals left", redeals),
        ("verified", f"yes, every event re-played by {verified_by}" if verified_by else "no"),
        ("recorded", f"{log.header.created} with {log.header.tool}"),
    ]
    if type(end.deal) is Start:  # a game started from a position: the position, as PGN shows its [FEN]
        summary.insert(0, ("started from", end.deal.text))
    e = html.escape
    rows = "".join(f"<tr><th>{e(k)}</th><td{' class=' + e(v.split()[0]) if k == 'result' else ''}>{e(v)}</td></tr>"
                   for k, v in summary)
    items = "".join(f'<li data-k="{k}" class="{_kind(t)}"><b>{k}</b> {e(t)}</li>'
                    for k, (t, _) in enumerate(events, 1))
    page = TEMPLATE.format(
        title=e(title), style=(HERE / "replay.css").read_text(encoding="utf-8"),
        heading=e(title), summary=rows, picture=picture.tostring(), last=len(events), items=items,
        data=_script_json(data), script=(HERE / "replay.js").read_text(encoding="utf-8"),
        pause=LONGEST_PAUSE_MS // 1000, **{f"icon_{name}": _icon(path) for name, path in ICONS.items()},
    )
    return page.encode()


#: the buttons' pictures, drawn rather than taken from a font
ICONS = {
    "first": "M3 2h2v12H3zM14 2v12L6 8z",
    "prev": "M12 2v12L4 8z",
    "play": "M4 2v12l10-6z",
    "pause": "M3 2h4v12H3zM9 2h4v12H9z",
    "next": "M4 2v12l8-6z",
    "last": "M11 2h2v12h-2zM2 2v12l8-6z",
}


def _icon(path: str) -> str:
    return f'<svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true"><path d="{path}"/></svg>'


def _kind(action_text: str) -> str:
    return action_text if action_text in ("hint", "undo", "restart", "redeal", "turn") else "move"


def _script_json(data) -> str:
    """JSON safe inside a <script> element."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{style}</style>
</head>
<body data-event="0">
<header><h1>{heading}</h1><table class="summary">{summary}</table></header>
<main>
<div class="board">
{picture}
</div>
<aside>
<div class="controls">
<button type="button" id="first" title="the deal (Home)" aria-label="first">{icon_first}</button>
<button type="button" id="prev" title="back one event (&#x2190;)" aria-label="back">{icon_prev}</button>
<button type="button" id="play" title="play or pause (space)" aria-label="play">
<span class="when-paused">{icon_play} play</span><span class="when-playing">{icon_pause} pause</span></button>
<button type="button" id="next" title="forward one event (&#x2192;)" aria-label="forward">{icon_next}</button>
<button type="button" id="last" title="the end (End)" aria-label="last">{icon_last}</button>
<select id="speed" title="playing speed" aria-label="speed">
<option value="1">recorded pace</option><option value="2">2&#xD7;</option><option value="5">5&#xD7;</option>
<option value="20">20&#xD7;</option><option value="0">fast</option>
</select>
</div>
<input type="range" id="slider" min="0" max="{last}" value="0" aria-label="event">
<p id="now" aria-live="polite">the deal</p>
<ol id="actions">{items}</ol>
<p class="keys">&#x2190; &#x2192; step &middot; Home End &middot; space plays &middot;
click an action to jump &middot;
the address ends in #K for event K &middot; pauses over {pause} s are cut short</p>
</aside>
</main>
<script type="application/json" id="replay-data">{data}</script>
<script>
{script}</script>
</body>
</html>
"""
