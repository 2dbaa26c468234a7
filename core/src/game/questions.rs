//! Questions rule scripts ask a player (`choose`): the game waits for the answer (`answer
//! strike`), which the `answer` event brings to the scripts. A question is part of the state,
//! so a save replays it and `undo` of the command that asked takes it back; the answer is a
//! command like any other, listed by the legal actions.

use super::state::{Question, Relation, State};
use super::Rejection;
use crate::rules::{PowerId, RuleSet};

/// Refusal rule id of a command given while a question waits.
pub const RULE_QUESTION: &str = "question-first";

/// The question as the player sees it: `Japan: Kamikaze strike in SZ 6? — answer strike | hold`.
pub fn prompt(rules: &RuleSet, q: &Question) -> String {
    format!(
        "{}: {} — answer {}",
        rules.power_info(q.power).name,
        q.text,
        q.answers.join(" | ")
    )
}

/// Commands other than `answer`, `undo` and `edit` wait for the first question's answer.
pub fn waiting(rules: &RuleSet, s: &State) -> Result<(), Rejection> {
    match s.questions.0.first() {
        None => Ok(()),
        Some(q) => Err(Rejection::new(format!(
            "a question waits for its answer first: {} (`answer {}`) [{}]",
            prompt(rules, q),
            q.answers[0],
            q.by
        ))
        .by(RULE_QUESTION)),
    }
}

/// Which answer of `q` the text gives: one of them (any case, or an unambiguous start) or its
/// number (1-based).
pub fn matching(q: &Question, text: &str) -> Result<usize, String> {
    let t = text.trim();
    if let Ok(n) = t.parse::<usize>() {
        if (1..=q.answers.len()).contains(&n) {
            return Ok(n - 1);
        }
    }
    if let Some(i) = q.answers.iter().position(|a| a.eq_ignore_ascii_case(t)) {
        return Ok(i);
    }
    let lower = t.to_lowercase();
    let starts: Vec<usize> = (0..q.answers.len())
        .filter(|&i| !lower.is_empty() && q.answers[i].to_lowercase().starts_with(&lower))
        .collect();
    match starts.as_slice() {
        [one] => Ok(*one),
        _ => Err(format!(
            "`{t}` is not an answer to “{}”; the answers: {}",
            q.text,
            q.answers
                .iter()
                .enumerate()
                .map(|(i, a)| format!("{} ({})", a, i + 1))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// `answer TEXT`: the first question is answered and leaves the state; the `answer` event
/// (fired with the command's events) carries it to the scripts.
pub fn answer(rules: &RuleSet, s: &mut State, text: &str, out: &mut Vec<String>) -> Result<(), Rejection> {
    let Some(q) = s.questions.0.first() else {
        return Err(Rejection::new("no question waits for an answer").by(RULE_QUESTION));
    };
    let i = matching(q, text).map_err(|e| Rejection::new(e).by(RULE_QUESTION))?;
    // The engine's own question: where an air unit whose base was lost lands.
    if let Some(id) = q.key.strip_prefix(super::scramble::LANDING) {
        let id: u32 = id.parse().unwrap_or(u32::MAX);
        let place = q.answers[i].clone();
        super::scramble::land_answered(rules, s, id, &place, out)?;
        s.questions.0.remove(0);
        return Ok(());
    }
    out.push(format!(
        "{} answers “{}”: {}",
        rules.power_info(q.power).name,
        q.text,
        q.answers[i]
    ));
    let q = s.questions.0.remove(0);
    // The engine's own question: whose pieces stand for a neutral's army.
    if let Some(space) = q.key.strip_prefix(super::neutrals::ARMY) {
        let space: usize = space.parse().unwrap_or(usize::MAX);
        super::neutrals::army_answered(rules, s, space, &q.answers[i], out);
    }
    // The engine's own question: passage through a canal this turn.
    if let Some(canal) = q.key.strip_prefix(PASSAGE) {
        if q.answers[i] == "allow" {
            s.this_turn.passages.0.push(canal.to_string());
        }
    }
    Ok(())
}

/// The key of the engine's question "may this power pass your canal this turn?".
const PASSAGE: &str = "passage:";

/// `ask passage through CANAL`: a canal or strait closed to the power because a power at peace
/// with it holds it (E40-CANAL-CONTROL: "ask permission; it may be denied") puts the question to
/// that power; allowed, the power's ships pass it this turn.
pub fn ask_passage(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    canal: usize,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let c = &rules.board.canals[canal];
    let reject = |m: String| Rejection::new(m).by("canals-and-straits");
    if s.this_turn.passages.0.contains(&c.name) {
        return Err(reject(format!(
            "{} may pass the {} this turn already",
            rules.power_info(power).name,
            c.name
        )));
    }
    let holders: Vec<Option<PowerId>> = c
        .controlled_by
        .iter()
        .map(|t| s.this_turn.start_control[t.index()])
        .collect();
    let friendly = |p: PowerId| p == power || s.relations[power.index()][p.index()] == Relation::Allied;
    let at_peace: Vec<PowerId> = holders
        .iter()
        .flatten()
        .copied()
        .filter(|p| s.relations[power.index()][p.index()] == Relation::Peace)
        .collect();
    let blocked = holders
        .iter()
        .any(|h| h.is_none_or(|p| !friendly(p) && s.relations[power.index()][p.index()] != Relation::Peace));
    if at_peace.is_empty() || blocked {
        return Err(reject(format!(
            "the {} is not held by a power at peace with {} (only such a power is asked for passage; one at war or a neutral keeps it closed)",
            c.name,
            rules.power_info(power).name
        )));
    }
    let holder = at_peace[0];
    let q = Question {
        power: holder,
        by: "engine".into(),
        key: format!("{PASSAGE}{}", c.name),
        text: format!(
            "{} asks passage through the {} this turn",
            rules.power_info(power).name,
            c.name
        ),
        answers: vec!["allow".into(), "deny".into()],
    };
    out.push(format!("asks {}", prompt(rules, &q)));
    s.questions.0.push(q);
    Ok(())
}
