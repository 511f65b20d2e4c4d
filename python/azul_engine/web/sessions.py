"""The web app's sessions: what each client has on the server (its language, score sheet, game in play, replay),
kept by a random token in its cookie; and the search for a finished score sheet's record, which runs in a thread
of its own.

A session lives in memory: the least recently used is dropped past the app's ``max_sessions``, and a restart of
the server forgets them all (download the sheet or the record to keep it).
"""

import copy
import json
import secrets
import threading
import time
from collections import OrderedDict

from . import synth


class Session:
    """What one client has: ``lang`` (chosen, or None), ``sheet``, ``game`` (a ``game.BrowserGame``), ``replay``, and
    ``record_job`` (a ``RecordJob``, once asked for); ``lock``: one request of the session at a time."""

    def __init__(self):
        self.lang = None
        self.sheet = None
        self.game = None
        self.replay = None
        self.record_job = None
        self.lock = threading.Lock()

    def live(self):
        """Holds something of the user's: a language chosen, a score sheet, a game or a replay."""
        return any(x is not None for x in (self.lang, self.sheet, self.game, self.replay))

    def finished_classic(self):
        """Holds a finished classic or grey score sheet: one whose record can be searched for."""
        return self.sheet is not None and self.sheet["over"] and self.sheet["variant"] != "summer-pavilion"


class RecordJob:
    """Where a search for a sheet's record stands: ``update`` is its progress callback (from its thread),
    ``status()`` reads it, ``done`` is set when it ends."""

    def __init__(self, sheet):
        self.sheet, self.key = sheet, self.key_of(sheet)
        self.started = time.monotonic()
        self.tries = self.best = 0
        self.rounds = len(sheet["rounds"])
        self.done = threading.Event()

    @staticmethod
    def key_of(sheet):
        return json.dumps([sheet["rounds"], sheet["final"]], sort_keys=True, default=str)

    def update(self, tries, best, rounds):
        self.tries, self.best, self.rounds = tries, best, rounds

    def status(self):
        return self.tries, self.best, self.rounds, time.monotonic() - self.started


def record_job(engine, session, seconds):
    """The search for a record of the session's finished sheet (synth.record), started once per sheet in a
    thread of its own and bounded by ``seconds``; it stores what it found in the sheet (None: nothing), unless
    the sheet changed meanwhile.  Called with the session's lock held."""
    sheet = session.sheet
    job = session.record_job
    if job is not None and job.sheet is sheet and job.key == RecordJob.key_of(sheet):
        return job
    job = session.record_job = RecordJob(sheet)
    snapshot = copy.deepcopy(sheet)  # the search reads it in its thread while the session may change

    def run():
        try:
            found = synth.record(engine, snapshot, seconds=seconds, progress=job.update)
        except synth.SynthesisError:
            found = None
        with session.lock:
            if session.sheet is sheet and job.key == RecordJob.key_of(sheet):
                sheet["record"] = found
        job.done.set()

    threading.Thread(target=run, name="azul-record-search", daemon=True).start()
    return job


class Sessions:
    """The clients' sessions by cookie token. A session is kept (and its cookie set) only once it holds
    something (``Session.live``): a request without a cookie gets a new session that is dropped afterwards if it
    is still empty, so requests without cookies (which any web page can make a browser send) neither fill the
    table nor push anyone's sheet out. At ``limit`` kept sessions, keeping one more drops the one used least
    recently."""

    def __init__(self, limit):
        self.limit, self.items, self.lock = limit, OrderedDict(), threading.Lock()

    def get(self, token):
        """``(token, session)``: the kept session of ``token``, or ``(None, a new session)``."""
        with self.lock:
            if isinstance(token, str) and token in self.items:
                self.items.move_to_end(token)
                return token, self.items[token]
        return None, Session()

    def keep(self, session):
        """Keep a new session; its token."""
        with self.lock:
            token = secrets.token_urlsafe(18)
            self.items[token] = session
            while len(self.items) > self.limit:
                self.items.popitem(last=False)
            return token
