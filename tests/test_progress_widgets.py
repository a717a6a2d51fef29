"""The record of learning seen from the widgets: what a quiz, a guided hand and
a table keep; the name asked once; the learner's map; erasing; the line of the
landing page."""

from __future__ import annotations

import re

import pytest

import widgets
from rummy import progress
from rummy.progress import DAY
from rummy.rulebook import GROUPS
from widgets import progress as wp

pytestmark = pytest.mark.usefixtures("own_data")


def kept(name: str = "Ana") -> list[progress.Event]:
    return progress.default_record().events(name)


def test_quiz_answers_are_kept_until_right_under_the_rule_named():
    progress.use_learner("Ana")
    q = widgets.Quiz("How many cards are dealt in round 7 (TT-1)?", "9")
    q.answer("7")
    q.answer("9")
    q.answer("9")  # after it is solved: not judged again
    got = [(e.rule, e.answered, e.right, e.first, e.source) for e in kept()]
    assert got == [("TT-1", "7", False, True, "quiz"), ("TT-1", "9", True, False, "quiz")]
    assert kept()[0].asked == "How many cards are dealt in round 7 (TT-1)?"


def test_quiz_without_a_rule_is_not_kept_and_an_explicit_rule_wins():
    progress.use_learner("Ana")
    widgets.Quiz("Which pile?", "stock").answer("stock")
    widgets.Quiz("Which pile (TT-5)?", "stock", rule="TT-4").answer("stock")
    assert [e.rule for e in kept()] == ["TT-4"]


def test_quiz_from_a_lesson_file_reads_its_rule():
    from widgets.quiz import quiz_from

    q = quiz_from({"question": "What does a queen cost?", "answer": "10", "rule": "C-2"})
    assert q.rule == "C-2"


def test_nobody_named_the_name_box_appears_once_and_the_answers_wait():
    q = widgets.Quiz("A queen costs (C-2)?", "10")
    q.answer("12")
    who = wp.who_is_learning()
    assert who.widget in q.widget.children
    assert "rummy-who-asking" in who.widget._dom_classes
    assert who.name.value == "Learner"  # the plain default
    assert progress.pending() and not (progress.default_path()).exists()
    assert "(1 answer is waiting to be kept)" in who.text.value
    q2 = widgets.Quiz("A king costs (C-2)?", "10")
    q2.answer("10")
    assert who.widget in q2.widget.children
    # the box says how many answers wait, each time one more does
    assert "(2 answers are waiting to be kept)" in who.text.value
    who.name.value = "  Ana  "
    who.ok.click()
    assert progress.learner() == "Ana" and progress.pending() == []
    assert [(e.rule, e.right) for e in kept()] == [("C-2", False), ("C-2", True)]
    assert "rummy-who-asking" not in who.widget._dom_classes
    assert "data-learner='Ana'" in who.text.value
    # the new key goes to the page, which keeps it in the browser
    key = progress.current_key()
    assert key and f"data-key='{key}'" in who.key_out.value
    who.key_kept.click()
    assert who.key_out.value == ""
    who.change.click()
    assert "rummy-who-changing" in who.widget._dom_classes
    who.name.value = ""
    who.ok.click()
    assert progress.learner() == "Learner"


def test_the_page_keeps_the_key_and_gives_it_back_never_a_name():
    js = wp.LEARNER_JS
    assert "localStorage" in js and "rummy-learner-key" in js and "data-key" in js
    assert ".rummy-who-asking" in js and "rummy-who-changing" in js
    assert "data-learner" not in js  # a name is never what the page gives back


def test_a_name_in_the_address_opens_nobodys_record(monkeypatch):
    progress.default_record().add("Ben", "M-1", "q", "holding 9c 4s 6s", False)
    monkeypatch.setenv("QUERY_STRING", "learner=Ben")
    p = widgets.Progress()
    assert p.learner is None and "holding" not in p.map.value
    assert p.erase_button.disabled and p.events_button.disabled
    p.erase(confirmed=True)
    assert len(kept("Ben")) == 1


def test_typing_anothers_name_in_any_case_is_refused():
    _, ana_key = progress.default_record().enrol("Ana")
    progress.default_record().add("Ana", "M-1", "q", "a", True)
    who = wp.who_is_learning()
    for typed in ("Ana", "ana", " ANA "):
        who.name.value = typed
        who.ok.click()
        assert progress.learner() is None and "already learns as" in who.message.value
    assert len(kept("Ana")) == 1


def test_the_browsers_key_brings_the_learner_back_and_a_wrong_one_is_forgotten():
    _, key = progress.default_record().enrol("Ana")
    who = wp.who_is_learning()
    who.key_in.value = progress.new_key()  # what another browser or a stale page holds
    who.key_go.click()
    assert progress.learner() is None and "data-forget" in who.key_out.value
    who.key_in.value = key
    who.key_go.click()
    assert progress.learner() == "Ana" and who.key_in.value == ""


def test_the_recovery_code_and_its_qr_continue_on_another_device():
    who = wp.who_is_learning()
    who.name.value = "Ana"
    who.ok.click()
    p = widgets.Progress()
    code = p.show_code()
    assert code == progress.show_key(progress.current_key())
    assert code in p.recovery.value and "<svg" in p.recovery.value
    progress.use_learner(None)  # another device: nobody yet
    who.code.value = "AAAA-" + code[5:]  # a wrong code
    who.resume.click()
    assert progress.learner() is None and "not known here" in who.message.value
    who.code.value = code.lower()
    who.resume.click()
    assert progress.learner() == "Ana"


def test_erasing_my_record_drops_the_browsers_key():
    who = wp.who_is_learning()
    who.name.value = "Ana"
    who.ok.click()
    key = progress.current_key()
    progress.record("M-1", "q", "a", True, source="quiz")
    p = widgets.Progress()
    p.erase(confirmed=True)
    assert kept("Ana") == [] and progress.learner() is None
    assert "data-forget" in who.key_out.value
    assert progress.default_record().learner_of(key) is None


def test_guided_moves_are_kept_with_their_rules():
    progress.use_learner("Ana")
    g = widgets.GuidedHand("three_thirteen")
    g.try_move("draw discard")  # the weaker draw: TT-5
    g.try_move("draw stock")
    g.try_move("discard Kc")  # good at the first try: TT-8 was at stake
    got = [(e.rule, e.right, e.first, e.source) for e in kept()]
    assert got == [("TT-5", False, True, "guided"), ("TT-5", True, False, "guided"),
                   ("TT-8", True, True, "guided")]
    assert all(e.asked.startswith("Three Thirteen: ") for e in kept())


def test_a_table_refusal_is_kept_with_its_rule_and_no_hidden_card():
    progress.use_learner("Ana")
    t = widgets.BigTableTable(players=4, seed=3, speed=0)
    t.play_move("draw own pile")
    assert "BT-3" in t.message.value
    (e,) = kept()
    assert (e.rule, e.right, e.source, e.answered) == ("BT-3", False, "table", "draw own pile")
    mine = {c.symbol for c in t.observation().hand}
    hidden = {c.symbol for p in range(1, 4) for c in t.state.observe(p).hand} - mine
    shown = set(re.findall(r"\b(?:10|[2-9AJQK])[♣♦♥♠]", e.asked))
    assert shown <= mine and not shown & hidden


def test_a_legal_move_at_a_table_is_a_rule_success():
    progress.use_learner("Ana")
    t = widgets.BigTableTable(players=4, seed=3, speed=0)
    t.play_move("draw pool")
    assert "rummy-error" not in t.message.value, t.message.value
    (e,) = kept()
    assert (e.rule, e.right, e.first, e.source, e.judged) == ("BT-3", True, True, "table", "rule")
    mine = {c.symbol for c in t.observation().hand}
    assert e.asked.startswith("your move at ") and ", holding " in e.asked
    assert set(e.asked.split("holding ", 1)[1].split()) <= mine | {e.answered}


def test_a_refusal_without_a_rule_is_not_kept():
    progress.use_learner("Ana")
    t = widgets.play("three_thirteen", seed=3, speed=0)
    t.play_move("go out Zz")
    assert kept() == []


def test_the_map_by_hand_due_first_with_words_shapes_and_practise_links():
    now = [100 * DAY]
    progress.set_clock(lambda: now[0])
    rec = progress.default_record()
    # TT-7: right at the first try on five days over two months, on new positions: mastered
    for d in (0, 4, 12, 30, 60):
        rec.add("Ana", "TT-7", f"position {d}", "a", True, source="quiz", when=d * DAY)
    rec.add("Ana", "M-2", "q", "a", True, source="drill", when=90 * DAY)  # due ~2 days later
    rec.add("Ana", "G-9", "q", "a", False, source="table", when=99.5 * DAY)  # due a day later
    rec.add("Ana", "TT-5", "q", "draw stock", False, source="drill", when=99 * DAY,
            judged="play")  # play, apart from the rule
    rec.add("Ben", "C-1", "q", "a", True, source="quiz", when=0)
    p = widgets.Progress("Ana")
    ms = progress.mastery(rec.events("Ana"))
    assert ms["TT-7"].status == "mastered" and ms["TT-7"].due_at > now[0]
    assert p.summary == "1 of 58 rules mastered, 1 due"
    html = p.map.value
    due = html.split("Due again now", 1)[1].split("</ul>", 1)[0]
    assert re.findall(r"data-rule='([^']+)'", due) == ["M-2"]
    assert "The rest are due again from" in html
    assert html.count("<li") == 58 + 1
    row = re.search(r"<li class='rummy-rule rummy-rule-practising' data-rule='G-9'>.*?</li>",
                    html).group(0)
    assert "<span class='rummy-rule-badge'>Practising</span>" in row
    assert ": <span class='rummy-rule-status'>1 try, 0 right at the first try, on 1 day" in row
    assert "due again 1970-04-1" in row  # a date (day 100 from the epoch): not due yet
    assert "rummy-rule-mastered' data-rule='TT-7'><span class='rummy-rule-badge'>Mastered" in html
    tt5 = re.search(r"data-rule='TT-5'>.*?</li>", html).group(0)
    assert "Not seen" in tt5 and "'rummy-rule-status'>play: the best move 0 of 1 time" in tt5
    c1 = re.search(r"data-rule='C-1'>.*?</li>", html).group(0)
    assert "Not seen" in c1 and "not practised yet" in c1
    assert "aria-label='Practise G-9: Scoring when not gin'" in row
    assert "practice.ipynb?rule=G-9" in row
    for group in GROUPS:
        assert f">{group}</h3>" in html
    assert "Ben" not in html


def _step(p: widgets.Progress) -> str:
    """The map's "Next step" line, its tags gone."""
    found = re.search(r"<p class='rummy-progress-step'[^>]*>(.*?)</p>", p.map.value)
    assert found, p.map.value[:500]
    return re.sub(r"<[^>]+>", "", found.group(1))


def _step_link(p: widgets.Progress) -> str:
    found = re.search(r"<a class='rummy-practise rummy-next-step' href='([^']+)'", p.map.value)
    assert found
    return found.group(1)


def test_the_map_says_first_what_to_practise_next():
    now = [100 * DAY]
    progress.set_clock(lambda: now[0])
    rec = progress.default_record()
    # nothing practised: the first rule of all, not seen yet
    p = widgets.Progress("Ana")
    assert p.map.value.index("rummy-progress-step") < p.map.value.index("<h3")
    assert _step(p).startswith("Next step: try a rule you have not practised yet: "
                               "\u201cRanks, suits, several decks\u201d (C-1).")
    assert _step_link(p).endswith("practice.ipynb?rule=C-1")
    # M-2 right on day 90, G-9 wrong on day 99.5: by day 100 M-2 is due again (days
    # later than the one day a first right answer earns), G-9 not yet (a day after)
    rec.add("Ana", "M-2", "q", "a", True, source="drill", when=90 * DAY)
    rec.add("Ana", "G-9", "q", "a", False, source="table", when=99.5 * DAY)
    p.refresh()
    assert _step(p).startswith("Next step: go over \u201cA run\u201d (M-2) again. It is due now")
    assert _step_link(p).endswith("practice.ipynb?rule=M-2")
    # its name holds the words it shows (axe: label-content-name-mismatch)
    assert "aria-label='Practise it: M-2, A run'>Practise it</a>" in p.map.value
    # a lesson's map: its own rules only, C-1 not among them
    lesson = widgets.Progress("Ana", rules=["G-9", "TT-1"])
    assert "\u201c" + "Scoring when not gin" not in _step(lesson)
    assert "(TT-1)" in _step(lesson)


def test_with_every_rule_seen_and_none_due_the_next_step_is_the_one_due_soonest():
    now = [0.0]
    progress.set_clock(lambda: now[0])
    rec = progress.default_record()
    from rummy.rulebook import RULE_IDS

    # every rule right once on day 0, then again on days 1 to 3 (ever longer
    # waits) except G-9, right once only: it comes back first
    for rule in RULE_IDS:
        rec.add("Ana", rule, "q", "a", True, source="drill", when=0.0)
        if rule != "G-9":
            for d in (1, 2, 3):
                rec.add("Ana", rule, f"q{d}", "a", True, source="drill",
                        when=progress.mastery(rec.events("Ana"))[rule].due_at)
    ms = progress.mastery(rec.events("Ana"))
    soonest = min(ms.values(), key=lambda m: m.due_at)
    assert soonest.rule == "G-9"
    now[0] = soonest.due_at - 3600.0  # an hour before it is due: nothing due
    p = widgets.Progress("Ana")
    assert p.summary.endswith(", 0 due")
    step = _step(p)
    assert step.startswith("Next step: nothing is due now. The first rule to come back is "
                           "\u201cScoring when not gin\u201d (G-9), from "), step
    assert _step_link(p).endswith("practice.ipynb?rule=G-9")


def test_the_marks_of_the_map_are_words_not_circles():
    progress.default_record().add("Ana", "M-1", "q", "a", True, source="drill")
    html = widgets.Progress("Ana").map.value
    for circle in "○◐●◯⚪⚫":
        assert circle not in html
    badges = re.findall(r"<span class='rummy-rule-badge'>([^<]*)</span>", html)
    assert len(badges) == 58 and set(badges) == {"Not seen", "Practising"}
    assert "aria-hidden" not in html.split("rummy-progress-group", 1)[1]


def test_every_event_listed_and_erase_confirmed_removes_only_that_learner():
    rec = progress.default_record()
    rec.add("Ana", "TT-7", "Who plays after you go out?", "everybody once", True, source="quiz")
    rec.add("Ana", "TT-5", "q", "discard 5c", False, source="table")
    rec.add("Ben", "TT-5", "q", "b", False, source="table")
    p = widgets.Progress("Ana")
    p.events_button.click()
    assert "2 events kept about you" in p.events.value
    assert "Who plays after you go out?" in p.events.value and "everybody once" in p.events.value
    p.erase_button.click()
    assert p.confirm_box.layout.display == "flex" and "Erase all 2 events" in p.confirm_text.value
    assert len(kept("Ana")) == 2  # nothing before it is confirmed
    p.confirm_erase.click()
    assert kept("Ana") == [] and len(kept("Ben")) == 1
    assert "Erased: 2 events about Ana" in p.message.value
    assert p.summary == "0 of 58 rules mastered, 0 due"


def test_the_map_follows_the_learner_named_later():
    p = widgets.Progress()
    assert p.learner is None and p.erase_button.disabled
    progress.default_record().add("Cleo", "M-1", "q", "a", True, source="drill")
    _, key = progress.default_record().reset_key("Cleo")  # the teacher gives Cleo a key
    wp.who_is_learning().recover(key)
    assert "Cleo: 0 of 58 rules mastered, 0 due" in p.map.value
    assert "Practising</span> <b>M-1</b> A set: <span class='rummy-rule-status'>1 try" \
        in p.map.value


def test_the_landing_line():
    progress.use_learner("Ana")
    progress.default_record().add("Ana", "M-1", "q", "a", True, source="drill", when=0)
    line = wp.ProgressLine()
    assert "Your progress: <b>0 of 58 rules mastered, 1 due</b>" in line.line.value
    assert "progress.ipynb" in line.line.value


def test_a_failing_record_never_breaks_the_quiz(monkeypatch):
    progress.use_learner("Ana")

    def broken(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(progress, "record", broken)
    q = widgets.Quiz("A queen costs (C-2)?", "10")
    assert q.answer("10") is True and q.feedback.startswith("Right")


def test_the_recovery_code_is_offered_once_the_browsers_key_names_the_learner():
    _, key = progress.default_record().enrol("Ana")
    p = widgets.Progress()
    assert p.code_button.disabled  # nobody yet
    who = wp.who_is_learning()
    who.key_in.value = key
    who.key_go.click()
    assert not p.code_button.disabled and p.show_code() == progress.show_key(key)
