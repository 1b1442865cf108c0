"""``eightoff play``: the web table in the browser, or the game in this terminal (board,
moves, hints and the solver's verdict after each move, as the web table has them)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text

from eightoff.cli import house_rules
from eightoff.cli.board import TerminalConsole, render_board, titled
from eightoff.cli.exits import EX_DATAERR, EX_INTERRUPTED, EX_USAGE, Terminated, fail
from eightoff.cli.say import language, say, text
from eightoff.cli.values import DEFAULT_HOST
from eightoff.counts import count
from eightoff.deals import deal, random_deal_number
from eightoff.explain import describe, hint_message, par_message, variant_name
from eightoff.game import Game
from eightoff.i18n import Message, quote, reason
from eightoff.position import IllegalMoveError, MoveSyntaxError, Position, places
from eightoff.rules import DEFAULT_VARIANT, Rules, preset

if TYPE_CHECKING:
    from eightoff.oracle import Oracle
    from eightoff.solver.optimal import ParLimits
    from eightoff.store import StoredPar


def terminal_help(rules: Rules) -> Message:
    """The terminal game's help: the places of these rules and the keys."""
    return Message("terminal.help", places=places(rules))


MAX_ENTRY = 40
"""The longest entry read as a move or a key (a move is at most 6 characters)."""


def _lost(verdict: object) -> bool:
    """Did the oracle prove the position lost? (Its word is "not_winnable"; the one
    verdict vocabulary under way spells it "lost": either is read.)"""
    return str(verdict) in ("not_winnable", "lost")


def winnability(oracle: Oracle, line: Sequence[Position]) -> str:
    """The status line's verdict for the last position of ``line`` (the game's
    positions, the start first), in the table's words: "Winnable", "Not winnable from
    here: undo 2 moves to get back", … Blocking: solves what the oracle has not seen."""
    n = len(line) - 1
    if _lost(oracle.answer(line[n], oracle.status_seconds).verdict):
        for k in range(1, n + 1):  # how far back is the last winnable position?
            if oracle.answer(line[n - k], oracle.status_seconds).moves or line[n - k].is_won():
                break
    return say(oracle.status(0, line).message)


def hint(oracle: Oracle, position: Position, line: Sequence[Position]) -> str:
    """The solver's next move and why, or why there is none."""
    answer = oracle.answer(position, oracle.hint_seconds)
    if answer.moves:  # a solution: the position is winnable
        move, n = answer.moves[0], count(position, answer.moves).player
        return text("terminal.hint", move=str(move), why=hint_message(position, move, n))
    if _lost(answer.verdict):
        return text("terminal.no_win", status=winnability(oracle, line))
    return text("terminal.no_win_found", seconds=oracle.hint_seconds)


def searched_par(oracle: Oracle, game: Game, *, longer: bool = False) -> StoredPar | None:
    """The par of the game's deal (from its start) as the table keeps it, searched once
    per deal on the oracle's par lane within the table's limits (blocking); ``longer``:
    the search the player asks to go on longer (``Oracle.may_search_longer`` says
    where). None when the search failed."""
    from eightoff.table import par_record  # loaded with the oracle

    try:
        return par_record(oracle.par_search(game.start, longer=longer).result())
    except Exception:
        return None


def par_words(oracle: Oracle, par: StoredPar | None, game: Game, *, won: bool = False) -> Message:
    """A par record in the table's words: "Par 14", "Par 14 — you took 16" (``won``: the
    game's moves as par counts them, as the web table says them), "Par is 31 to 33 (not
    proven within 20 seconds)", "Par is 36 to 40 (not proven: the search filled its 512
    MiB of memory)", "Par unknown …" (None: the search failed)."""
    from eightoff.solver.optimal import stopped_by_memory  # loaded with the oracle

    if par is None:
        return Message("par.unknown")
    limits = oracle.par_limits_of(par)
    return par_message(
        optimal=par.optimal,
        lower=par.lower,
        upper=par.upper,
        lost=par.lost,
        took=game.player_moves_as_par if won else None,
        counter=game.player_moves if won else None,
        seconds=limits.seconds,
        memory_mb=limits.memory_mb if stopped_by_memory(par.reason) else None,
    )


def play_terminal(
    variant: str | Rules,
    number: int | None,
    console: Console | None = None,
    oracle: Oracle | None = None,
) -> int:
    """The terminal game: shows the board, reads moves, explains bad entries, gives
    hints (``t``) and after each move the solver's verdict, as the web table does.
    ``variant`` may be Rules with house rules (``--retrieval``/``--strict``)."""
    from eightoff.oracle import Oracle

    console = console or TerminalConsole(highlight=False)
    oracle = oracle or Oracle(status_seconds=2.0, hint_seconds=5.0)
    try:
        return _terminal_loop(variant, number, console, oracle)
    except Terminated:
        raise  # SIGTERM: 143 from main()
    except KeyboardInterrupt:  # Ctrl+C, at the prompt or in a search: 130, as everywhere
        console.print()
        print(text("cli.play.terminal_interrupted", prog="eightoff"), file=sys.stderr)
        return EX_INTERRUPTED
    except EntryTooLong:
        print(text("cli.play.entry_too_long", prog="eightoff", n=ENTRY_LIMIT), file=sys.stderr)
        return EX_DATAERR
    finally:
        oracle.close()


class EntryTooLong(Exception):
    """A line of standard input too long to be an entry of the game (not a terminal)."""


ENTRY_LIMIT = 1 << 20
"""The longest line of standard input the game reads when it is not a terminal (on a
terminal the kernel bounds a typed line): a longer one ends the game (EX_DATAERR). Of a
line over 4096 characters the first 4097 are the entry (refused, as any entry of more
than MAX_ENTRY characters is), the rest is read and dropped."""


def read_entry(prompt: str) -> str:
    """The next entry. On a terminal ``input()``, with line editing (readline: arrow keys,
    history; an end of file typed in a line's middle no longer loses a character); from a
    pipe or a file at most :data:`ENTRY_LIMIT` characters of a line, never the whole of an
    endless one (``< /dev/zero``). Raises EOFError at the end, EntryTooLong."""
    if sys.stdin is not None and sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # not on every platform
            import readline  # noqa: F401  (input() uses it once imported)
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    if sys.stdin is None:
        raise EOFError
    line = sys.stdin.readline(4097)
    if not line:
        raise EOFError
    read = len(line)
    rest = line
    while not rest.endswith("\n"):  # the rest of a long line: read a piece at a time, dropped
        rest = sys.stdin.readline(4096)
        read += len(rest)
        if not rest:
            break
        if read > ENTRY_LIMIT:
            raise EntryTooLong
    return line.rstrip("\r\n")


class _Screen:
    """The terminal game's screen. On a terminal the board is drawn in place (the screen
    cleared and drawn again), with the history of moves and messages below it, the newest
    last, just above the prompt. Into a pipe or a file it is a log: each message and each
    new board printed as it comes."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.in_place = console.is_terminal
        self.history: list[Text] = []
        self.board: Text | None = None
        self.verdict = ""
        self.dirty = False

    def note(self, words: str | Message, style: str = "") -> None:
        """A line of the history (a move, a hint, a refusal)."""
        line = Text(say(words), style=style)
        self.history.append(line)
        if self.in_place:
            self.dirty = True
        else:
            self.console.print(line)

    def show(self, board: Text, verdict: str) -> None:
        """A new board (and the verdict under it)."""
        self.board, self.verdict = board, verdict
        if self.in_place:
            self.dirty = True
        else:
            self.console.print(board)
            if verdict:
                self.console.print(verdict, style="bold")

    def draw(self) -> None:
        """On a terminal: the board and as much of the history as fits below it."""
        if not (self.in_place and self.dirty and self.board is not None):
            return
        self.dirty = False
        c = self.console
        c.clear()
        c.print(self.board)
        if self.verdict:
            c.print(self.verdict, style="bold")
        used = self.board.plain.count("\n") + 4
        room = max(3, c.height - used - 2)
        shown: list[Text] = []
        height = 0
        for entry in reversed(self.history):  # the newest entries that fit, oldest first
            height += len(c.render_lines(entry, c.options, pad=False))
            if height > room and shown:
                break
            shown.insert(0, entry)
        c.rule(text("terminal.history"), style="dim")
        for entry in shown:
            c.print(entry)


def dealt(variant: str | Rules, number: int) -> tuple[Game, list[str]]:
    """A deal as the web table starts it: the safe cards go home as part of the deal (undo
    and restart come back here, not before it). Also the moves that sent them, in words."""
    game = Game.new(variant, number)
    start = game.position
    turn = game.auto_home()
    said: list[str] = []
    if turn is not None:
        pos, lang = start, language()
        for m in (turn.move, *turn.auto):
            said.append(describe(pos, m, lang))
            pos = pos.apply_unchecked(m)
    return Game(game.position, deal_number=number), said


def _terminal_loop(
    variant: str | Rules, number: int | None, console: Console, oracle: Oracle
) -> int:
    number = number if number is not None else random_deal_number()
    screen = _Screen(console)
    screen.note(
        terminal_help(variant if isinstance(variant, Rules) else preset(variant)), style="dim"
    )

    def new_deal(n: int) -> Game:
        game, home = dealt(variant, n)
        if home:
            screen.note(Message("terminal.home_at_deal", moves="; ".join(home)), style="green")
        return game

    game = new_deal(number)

    def say_par(*, won: bool = False, longer: bool = False) -> StoredPar | None:
        """Par searched (``longer``: on longer, where the oracle's rule lets it) and
        said; returns the record when a longer search may still narrow it."""

        def searching(limits: ParLimits) -> None:
            screen.note(Message("par.searching", seconds=limits.seconds or 0), style="dim")
            screen.draw()

        if not longer or not oracle.par_search(game.start).done():
            searching(oracle.par_limits)
        par = searched_par(oracle, game)
        if longer and par is not None and oracle.may_search_longer(par):
            searching(oracle.par_longer_limits)
            par = searched_par(oracle, game, longer=True)
        screen.note(par_words(oracle, par, game, won=won), style="bold green" if won else "cyan")
        return par if par is not None and oracle.may_search_longer(par) else None

    def offer_longer(key: str) -> None:
        seconds = oracle.par_longer_limits.seconds or 0
        screen.note(Message(key, seconds=seconds), style="dim")

    def show() -> None:
        rules, lang = game.rules, language()
        title = Message(
            "terminal.title",
            variant=variant_name(rules, lang),
            deal=str(game.deal_number),
            moves=game.player_moves,
        )
        won = game.position.is_won()
        screen.show(
            render_board(game.position, titled(title, rules, lang), lang),
            "" if won else winnability(oracle, game.positions()),
        )

    show()
    while True:
        if game.position.is_won():
            screen.note(Message("terminal.won", n=game.player_moves), style="bold green")
            if say_par(won=True) is not None:
                offer_longer("terminal.par_longer_won")
                screen.draw()
                try:
                    entry = read_entry(text("terminal.prompt")).strip().lower()
                except EOFError:
                    console.print()
                    entry = ""
                if entry in ("pl", "par longer"):
                    say_par(won=True, longer=True)
            screen.draw()
            return 0
        if game.position.is_lost():
            screen.note(Message("terminal.no_moves_left"), style="yellow")
        screen.draw()
        try:
            entry = read_entry(text("terminal.prompt")).strip()
        except EOFError:  # Ctrl+D, the end of a file of moves: a quit
            console.print()
            return 0
        if not entry:
            continue
        if len(entry) > MAX_ENTRY:
            screen.note(Message("terminal.not_a_move", entry=quote(entry)), style="yellow")
            continue
        cmd = entry.lower()
        if cmd in ("q", "quit", "exit"):
            return 0
        if cmd in ("?", "help"):
            moves = game.position.legal_moves()
            listed = Message("terminal.legal_moves", moves=" ".join(str(m) for m in moves))
            screen.note(listed if moves else Message("terminal.no_legal_moves"))
            screen.note(terminal_help(game.rules), style="dim")
            continue
        if cmd in ("t", "hint"):
            screen.note(hint(oracle, game.position, game.positions()), style="cyan")
            continue
        if cmd in ("p", "par", "pl", "par longer"):
            if say_par(longer=cmd in ("pl", "par longer")) is not None:
                offer_longer("terminal.par_longer")
            continue
        if cmd in ("u", "undo"):
            if game.undo() is None:
                screen.note(Message("terminal.nothing_to_undo"), style="yellow")
            else:
                screen.note(Message("terminal.undone", n=game.player_moves))
            show()
            continue
        if cmd in ("r", "redo"):
            if game.redo() is None:
                screen.note(Message("terminal.nothing_to_redo"), style="yellow")
            else:
                screen.note(Message("terminal.redone"))
            show()
            continue
        if cmd in ("s", "restart"):
            game.restart()
            screen.note(Message("terminal.restarted"))
            show()
            continue
        if cmd in ("n", "new"):
            game = new_deal(random_deal_number())
            show()
            continue
        try:
            before = game.position
            turn = game.play(entry)
        except (MoveSyntaxError, IllegalMoveError) as e:
            why = reason(e) or str(e)
            screen.note(Message("terminal.try_again", reason=why), style="yellow")
            continue
        lang = language()
        said = [describe(before, turn.move, lang)]
        pos = before.apply_unchecked(turn.move)
        for m in turn.auto:
            said.append(describe(pos, m, lang))
            pos = pos.apply_unchecked(m)
        screen.note("; ".join(said), style="green")
        show()


def cmd_play(args: argparse.Namespace) -> int:
    rules = house_rules.apply(preset(args.variant or DEFAULT_VARIANT), args)
    if args.terminal:
        # the table's options: the terminal game opens no server and keeps nothing
        for flag, given in (
            ("--db", args.db is not None),
            ("--port", args.port is not None),
            ("--host", args.host != DEFAULT_HOST),
            ("--no-browser", args.no_browser),
        ):
            if given:
                return fail("eightoff play", Message("cli.play.not_terminal", flag=flag), EX_USAGE)
        return play_terminal(rules, args.deal)
    try:
        from eightoff.store import StoreError
        from eightoff.web.server import serve, store_failed
    except ImportError:
        print(text("cli.play.no_web", prog="eightoff"), file=sys.stderr)
        return play_terminal(rules, args.deal)
    if args.deal is not None or args.variant is not None or rules != preset(rules.id):
        try:
            _start_web_game(args.db, rules, args.deal)
        except StoreError as e:  # unreadable, unwritable, not a database: one line
            return store_failed(e)
    # one server per database: serve() points to a live one instead of starting another
    return serve(args.host, args.port, args.db, not args.no_browser)


def _start_web_game(db: str | None, rules: Rules, number: int | None) -> None:
    """``play --variant/--deal/--retrieval/--strict/--cells`` without --terminal: the table opens
    on that deal, with those house rules (started as the table starts a deal)."""
    from eightoff.store import Store
    from eightoff.table import Table
    from eightoff.web.server import resolve_db

    number = number if number is not None else random_deal_number()
    store = Store(resolve_db(db))
    try:
        Table(store).start_dealt(deal(rules, number), number)
    finally:
        store.close()
