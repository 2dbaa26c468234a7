//! The bridge between the game and the Lua host (wired once the host lands).

use super::command::Command;
use super::View;
use crate::rules::{PowerId, RuleSet};

pub struct Hooks;

impl Hooks {
    pub fn for_rules(rules: &RuleSet) -> Result<Option<Hooks>, String> {
        if rules.scripts.is_empty() {
            Ok(None)
        } else {
            Err("this build cannot run Lua scripts yet".into())
        }
    }

    pub fn validate(&mut self, _rules: &RuleSet, _cmd: &Command, _power: PowerId, _view: &View) -> Result<(), super::Rejection> {
        Ok(())
    }
}
