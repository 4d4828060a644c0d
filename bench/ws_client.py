"""A Streamlit websocket protocol client: one simulated browser tab (a `Viewer`) that opens a deep link, switches
pages and tabs, and records what the server sent, without a browser. bench.audience drives many at once.

API (asyncio; every coroutine runs in the caller's event loop, one Viewer per session):

    v = Viewer(port, index)                       # a tab on http://127.0.0.1:<port>; `index`: the caller's label
    step = await v.open("/page?query", timeout)   # the pings, the websocket, the first run (Step "first")
    step = await v.switch_page("other", timeout)  # a click in the navigation (Step "page"); "" is home
    if v.next_tab() is not None:                  # (tab container, next label) of the page's first bound st.tabs
        step = await v.switch_tab(timeout)        # a click on that next tab (Step "tab")
    step = await v.act({"key": value, ...}, t)     # widgets by their key: a button's True is a click (Step "act")
    step = await v.refresh(fragment_id, t)        # a fragment's run_every tick, as the frontend's timer sends it
    await v.close()                               # ends the connection and its reader task

- A `Step` has kind ("first", "page", "tab"), target, seconds (None: not served), messages and kbytes received
  for it, and its errors: the server's faults (below) are a step's errors, not exceptions. Switch pages or tabs
  only on an open connection (`ws` set and `closed` None after `open`), as bench.audience's walk does.
- What the viewer holds between steps: `texts` (the current run's markdown, headings, alerts, "label: value" metrics and
  "chart: alt" chart alt texts), `query` (the URL's query string as the server wrote it back), `url_path`,
  `pages` (url_pathname -> page_script_hash), `page_hash`, `tabs` (delta path -> {id, key, index, labels} of each
  bound tab container), `widgets` (user key -> (element id, fragment id, element type) of the last run's keyed
  widgets), `auto` (fragment id -> seconds of each fragment that reruns itself), `errors` (the last step's), `closed` (why the connection ended, or None), `ws` (None until
  a connection opened), `messages` and `nbytes` (totals).
- `http_get(port, path)` is the plain HTTP GET of the pings (its status code); QUIET_S the quiet that ends a step.

A viewer does what Streamlit's frontend (1.67) does, message for message:
- GET /_stcore/health and /_stcore/host-config (the frontend's connection pings), then opens
  ws://host:port/_stcore/stream with the subprotocols ["streamlit", <xsrf or placeholder token>];
- sends a `rerun_script` BackMsg whose ClientState carries the link's query string, page_name = the link's
  url_path and page_script_hash "" (a deep link: the frontend knows no page hash yet), the hashes of the
  messages it has cached, and its context (timezone, locale, URL, colour scheme);
- reads ForwardMsgs: `new_session` (a run starts; it carries the app's pages and config), deltas, `navigation`
  (the pages' script hashes), `page_info_changed` (the query string the server writes back into the URL),
  `ref_hash` (a message it has cached, resolved from its own cache as the frontend's ForwardMsgCache does,
  which expires entries older than the server's `max_cached_message_age` runs), `script_finished` and
  `session_status_changed`;
- a page switch is a `rerun_script` with the target page's page_script_hash and the URL's bound parameters
  (as the frontend's onPageChange); a tab switch is a `rerun_script` whose WidgetStates carry the tab container's
  widget id with the new tab's label as its string value, and the URL's `<page>_section=<label>` (a bound
  st.tabs: what the frontend sends when a tab is clicked). A query string alone would not switch a tab on a
  rerun of the same page: Streamlit seeds a bound widget from the URL on its first run only.

Served: a step (first page, page or tab switch) is served once a `script_finished` FINISHED_SUCCESSFULLY has
arrived for a run started after the request and no further message has arrived for 0.5 s (a run that reruns
itself, `st.switch_page`/`st.rerun`, or a follow-up run, starts a new `new_session` within that time and resets
it). Its time is that of the last message before the quiet, from the viewer's start (first page: before the
pings) or from the request (a step). Errors: an `exception` element in any delta, a script compilation
exception, `page_not_found`, a run finished with a compile error, a dropped connection or a step not served
within the step's `timeout`.
"""
from __future__ import annotations

import asyncio
import time
import urllib.parse
from dataclasses import dataclass, field

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from websockets.asyncio.client import connect

QUIET_S = 0.5
HOST = "127.0.0.1"


@dataclass
class Step:
    kind: str  # "first", "page", "tab"
    target: str
    seconds: float | None = None  # None: not served
    messages: int = 0
    kbytes: float = 0.0
    errors: list[str] = field(default_factory=list)


class Viewer:
    """One browser tab's worth of Streamlit protocol (see the module docstring)."""

    def __init__(self, port: int, index: int):
        self.port = port
        self.index = index
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.changed = asyncio.Event()
        self.query = ""
        self.url_path = ""
        self.pages: dict[str, str] = {}  # url_pathname -> page_script_hash
        self.page_hash = ""
        self.tabs: dict[tuple, dict] = {}  # delta path of a bound tab container -> {id, key, index, labels}
        self.cache: dict[str, list] = {}  # hash -> [encoded msg, run count when last used]
        self.run_count = 0
        self.max_age = 2
        self.finished_ok = False
        self.last_msg = 0.0
        self.messages = 0
        self.nbytes = 0
        self.errors: list[str] = []
        # The current run's markdown, headings, metrics ("label: value") and chart alt texts ("chart: alt"): what a
        # test reads to check that a viewer sees its own state.
        self.texts: list[str] = []
        self.closed: str | None = None
        self.widgets: dict[str, tuple[str, str, str]] = {}  # user key -> (element id, fragment id, element type)
        self.auto: dict[str, float] = {}  # fragment id -> run_every seconds (the frontend's timers)

    # -- receiving -------------------------------------------------------------------------------------------
    async def _read(self) -> None:
        try:
            async for data in self.ws:
                self.last_msg = time.perf_counter()
                self.messages += 1
                self.nbytes += len(data)
                msg = ForwardMsg()
                msg.ParseFromString(data)
                self._handle(msg, data)
                self.changed.set()
        except Exception as exc:  # a dropped connection ends the viewer's steps with an error
            self.closed = f"{type(exc).__name__}: {exc}"[:200]
        else:
            self.closed = self.closed or "connection closed by the server"
        self.changed.set()

    def _handle(self, msg: ForwardMsg, data: bytes) -> None:
        kind = msg.WhichOneof("type")
        if kind == "ref_hash":
            entry = self.cache.get(msg.ref_hash)
            if entry is None:
                self.errors.append(f"cached message missing: {msg.ref_hash}")
                return
            entry[1] = self.run_count
            ref = ForwardMsg()
            ref.ParseFromString(entry[0])
            ref.metadata.CopyFrom(msg.metadata)
            msg, kind = ref, ref.WhichOneof("type")
        elif msg.metadata.cacheable and msg.hash:
            self.cache.setdefault(msg.hash, [data, self.run_count])[1] = self.run_count
        if kind == "new_session":
            ns = msg.new_session
            self.finished_ok = False
            self.tabs, self.texts = {}, []
            self.max_age = ns.config.max_cached_message_age or self.max_age
            self.page_hash = ns.page_script_hash
            for p in ns.app_pages:
                self.pages[p.url_pathname] = p.page_script_hash
        elif kind == "navigation":
            for p in msg.navigation.app_pages:
                self.pages[p.url_pathname] = p.page_script_hash
            self.page_hash = msg.navigation.page_script_hash or self.page_hash
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "delta":
            self._delta(msg)
        elif kind == "auto_rerun":
            self.auto[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            self.auto.pop(msg.stop_auto_rerun.fragment_id, None)  # (unused by 1.67's server; kept as the frontend does)
        elif kind == "script_finished":
            status = msg.script_finished
            if status in (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY):
                self.finished_ok = True
                self.run_count += 1  # the frontend's ForwardMsgCache.incrementRunCount
                self.cache = {h: e for h, e in self.cache.items() if self.run_count - e[1] <= self.max_age}
            elif status == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                self.errors.append("script finished with a compile error")
        elif kind == "session_event" and msg.session_event.HasField("script_compilation_exception"):
            self.errors.append("compilation exception: " + msg.session_event.script_compilation_exception.message[:200])
        elif kind == "page_not_found":
            self.errors.append(f"page not found: {msg.page_not_found.page_name!r}")

    def _delta(self, msg: ForwardMsg) -> None:
        delta = msg.delta
        path = tuple(msg.metadata.delta_path)
        element = delta.new_element.WhichOneof("type") if delta.WhichOneof("type") == "new_element" else None
        if element is not None:
            wid = getattr(getattr(delta.new_element, element), "id", "")
            if isinstance(wid, str) and wid.startswith("$$ID-") and wid.count("-") >= 2:
                self.widgets[wid.split("-", 2)[2]] = (wid, delta.fragment_id, element)
        if element == "exception":
            exc = delta.new_element.exception
            self.errors.append(f"exception {exc.type}: {exc.message[:200]}")
        elif element in ("markdown", "heading", "alert"):
            self.texts.append(getattr(delta.new_element, element).body)
        elif element == "metric":
            self.texts.append(f"{delta.new_element.metric.label}: {delta.new_element.metric.body}")
        elif element == "plotly_chart" and delta.new_element.plotly_chart.alt:
            self.texts.append(f"chart: {delta.new_element.plotly_chart.alt}")
        elif delta.WhichOneof("type") == "add_block":
            block = delta.add_block
            if block.WhichOneof("type") == "tab_container" and block.tab_container.id:
                tc = block.tab_container
                self.tabs[path] = {"id": tc.id, "key": tc.query_param_key, "index": tc.default_tab_index,
                                   "labels": []}
            elif block.WhichOneof("type") == "tab" and path[:-1] in self.tabs:
                self.tabs[path[:-1]]["labels"].append(block.tab.label)

    # -- sending ---------------------------------------------------------------------------------------------
    def _client_state(self, **kw) -> ClientState:
        cs = ClientState(query_string=self.query, cached_message_hashes=list(self.cache), **kw)
        ctx = cs.context_info
        ctx.timezone, ctx.timezone_offset, ctx.locale = "UTC", 0, "en-US"
        ctx.url = f"http://{HOST}:{self.port}/{self.url_path}" + (f"?{self.query}" if self.query else "")
        ctx.is_embedded, ctx.color_scheme = False, "light"
        return cs

    async def _rerun(self, step: Step, t0: float, timeout: float, **kw) -> Step:
        self.finished_ok = False
        self.errors = []
        m0, b0 = self.messages, self.nbytes
        await self.ws.send(BackMsg(rerun_script=self._client_state(**kw)).SerializeToString())
        deadline = t0 + timeout
        while True:
            now = time.perf_counter()
            if self.finished_ok and now - self.last_msg >= QUIET_S:
                step.seconds = self.last_msg - t0
                break
            if self.closed:
                self.errors.append(self.closed)
                break
            if now >= deadline:
                self.errors.append(f"not served within {timeout:.0f} s")
                break
            self.changed.clear()
            wait = QUIET_S - (now - self.last_msg) if self.finished_ok else deadline - now
            try:
                await asyncio.wait_for(self.changed.wait(), timeout=max(0.005, min(wait, deadline - now)))
            except asyncio.TimeoutError:
                pass
        step.messages, step.kbytes, step.errors = self.messages - m0, (self.nbytes - b0) / 1024, list(self.errors)
        return step

    async def open(self, link: str, timeout: float) -> Step:
        """Open a deep link (`/path?query`) as a new browser tab does; the time counts from before the pings."""
        parsed = urllib.parse.urlsplit(link)
        self.url_path, self.query = parsed.path.strip("/"), parsed.query
        step = Step("first", link)
        t0 = time.perf_counter()
        try:
            for path in ("/_stcore/health", "/_stcore/host-config"):
                status = await http_get(self.port, path)
                if status != 200:
                    step.errors.append(f"GET {path}: HTTP {status}")
                    return step
            self.ws = await connect(f"ws://{HOST}:{self.port}/_stcore/stream", subprotocols=["streamlit",
                                    "PLACEHOLDER_AUTH_TOKEN"], origin=f"http://{HOST}:{self.port}",
                                    compression=None, max_size=None, open_timeout=timeout, ping_interval=None)
        except Exception as exc:
            step.errors.append(f"connect: {type(exc).__name__}: {exc}"[:200])
            return step
        self.reader = asyncio.create_task(self._read())
        return await self._rerun(step, t0, timeout, page_name=self.url_path, page_script_hash="")

    async def switch_page(self, url_path: str, timeout: float) -> Step:
        """A click on a page in the navigation: the target's script hash; the URL keeps the bound parameters
        (not the old page's section)."""
        step = Step("page", url_path or "home")
        page_hash = self.pages.get(url_path)
        if page_hash is None:
            step.errors.append(f"no page {url_path!r} in the navigation")
            return step
        old_keys = {t["key"] for t in self.tabs.values()}
        self.query = urllib.parse.urlencode([(k, v) for k, v in urllib.parse.parse_qsl(self.query)
                                             if k not in old_keys])
        self.url_path = url_path
        return await self._rerun(step, time.perf_counter(), timeout, page_script_hash=page_hash)

    def next_tab(self) -> tuple[dict, str] | None:
        """The open page's first bound tab container and the tab after its open one."""
        for tc in self.tabs.values():
            if tc["key"] and len(tc["labels"]) > 1:
                return tc, tc["labels"][(tc["index"] + 1) % len(tc["labels"])]
        return None

    async def switch_tab(self, timeout: float) -> Step:
        tc, label = self.next_tab()
        step = Step("tab", f"{self.url_path or 'home'} · {label}")
        params = [(k, v) for k, v in urllib.parse.parse_qsl(self.query) if k != tc["key"]]
        if label != tc["labels"][0]:  # the frontend keeps a bound widget's default out of the URL
            params.append((tc["key"], label))
        self.query = urllib.parse.urlencode(params)
        states = WidgetStates()
        states.widgets.add(id=tc["id"], string_value=label)
        return await self._rerun(step, time.perf_counter(), timeout, widget_states=states,
                                 page_script_hash=self.page_hash)

    async def act(self, values: dict, timeout: float) -> Step:
        """Set keyed widgets and rerun as the frontend does (a button's True is its click; a slider's number; a
        radio's or text input's string), in the widgets' fragment when they are in one."""
        step = Step("act", ", ".join(values))
        states = WidgetStates()
        fragment = ""
        for key, value in values.items():
            if key not in self.widgets:
                step.errors.append(f"no widget {key!r} on the page")
                return step
            wid, fragment, element = self.widgets[key]
            w = states.widgets.add(id=wid)
            if element == "button":
                w.trigger_value = bool(value)
            elif element == "slider":
                w.double_array_value.data.append(float(value))
            else:
                w.string_value = str(value)
        return await self._rerun(step, time.perf_counter(), timeout, widget_states=states,
                                 page_script_hash=self.page_hash, fragment_id=fragment)

    async def refresh(self, fragment_id: str, timeout: float) -> Step:
        """One tick of a fragment's run_every timer (the frontend's auto rerun of that fragment)."""
        return await self._rerun(Step("tick", fragment_id), time.perf_counter(), timeout,
                                 page_script_hash=self.page_hash, fragment_id=fragment_id, is_auto_rerun=True)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, timeout=5)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                self.reader.cancel()


async def http_get(port: int, path: str) -> int:
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read()
    writer.close()
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
