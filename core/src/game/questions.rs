//! Questions rule scripts ask a player (`choose`): the game waits for the answer (`answer
//! strike`), which the `answer` event brings to the scripts. A question is part of the state,
//! so a save replays it and `undo` of the command that asked takes it back; the answer is a
//! command like any other, listed by the legal actions.

use super::state::{Question, State};
use super::Rejection;
use crate::rules::RuleSet;

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
    out.push(format!(
        "{} answers “{}”: {}",
        rules.power_info(q.power).name,
        q.text,
        q.answers[i]
    ));
    s.questions.0.remove(0);
    Ok(())
}
