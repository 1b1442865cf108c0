"""The command line's words for people, in the language of the environment.

Every sentence a command prints for people (refusals, result lines, summaries, help,
the terminal game) is a :class:`eightoff.i18n.Message` of the ``cli.*`` and
``terminal.*`` blocks of the catalogues, rendered here in the language
:func:`eightoff.i18n.environment_language` reads from ``LC_ALL``, ``LC_MESSAGES``,
``LANG`` and ``LANGUAGE`` (as gettext does). What machines read (``--json``,
``--quiet`` lines' figures, CSV, board text) is not translated.

>>> say(Message("cli.solve.both"), "de")
'gib Spielnummern oder --board DATEI an, nicht beides'
"""

from __future__ import annotations

from eightoff.i18n import Lang, Message, Param, environment_language, reason, translate


def language() -> Lang:
    """The command line's language (read from the environment each time: cheap, and a
    test or a shell may change it)."""
    return environment_language()


def say(message: Message | str, lang: Lang | None = None) -> str:
    """``message`` in the command line's language (plain text as it is)."""
    return translate(message, lang or language())


def text(msg_id: str, /, **params: Param) -> str:
    """The message ``msg_id`` with ``params`` in the command line's language."""
    return say(Message(msg_id, **params))


def said(error: BaseException) -> str:
    """An error's words: its Message in the command line's language, else its text."""
    return say(reason(error) or str(error))


__all__ = ["language", "said", "say", "text"]
