//! The read-only window handlers get onto the game (`game` in a handler), valid only during
//! one dispatch (principle §5: nothing a script keeps outlives the call).

use std::cell::RefCell;

use mlua::{UserDataFields, UserDataMethods};

use super::error::ScriptErrorKind;
use super::event::Request;
use super::value::{from_lua, to_lua, Value};

/// What scripts may read of the game. The engine implements it over its state; tests
/// implement it over a few fixed values. Every method must be deterministic.
pub trait GameView {
    /// The current round, starting at 1.
    fn round(&self) -> u32;
    /// The power whose turn it is.
    fn power(&self) -> &str;
    /// The id of the current phase (from the edition's `[turn] phases`).
    fn phase(&self) -> &str;
    /// Who controls `space` (`None` for an unknown space or an unowned sea zone).
    fn owner(&self, space: &str) -> Option<String>;
    /// A power's IPCs in hand (`None` for an unknown power).
    fn treasury(&self, power: &str) -> Option<i64>;
    /// Units in `space` as `(owner, unit type, count)`, in a stable order chosen by the engine.
    fn units(&self, space: &str) -> Vec<(String, String, u32)>;
    /// How two powers stand: `"war"`, `"peace"` or `"allied"` (`None` for an unknown power or a
    /// power and itself).
    fn relation(&self, a: &str, b: &str) -> Option<&'static str>;
    /// Every space of the board, by name, in board order.
    fn spaces(&self) -> Vec<String> {
        Vec::new()
    }
    /// Every power, in the rule set's order.
    fn powers(&self) -> Vec<String> {
        Vec::new()
    }
    /// What the board says of a space and who holds it now: `name`, `sea`, `ipcs`,
    /// `original_owner` (the printed owner, `""` for none), `owner` (`""` for none), `capital`,
    /// `victory_city` (`""` for none), `island`, `neutral`.
    fn space(&self, _space: &str) -> Option<Value> {
        None
    }
    /// A power: `name`, `side`, `ipcs` (in hand), `techs` (list of tech ids held).
    fn power_info(&self, _power: &str) -> Option<Value> {
        None
    }
    /// A unit type: `id`, `name`, `domain`, `tags`, `cost`, `attack`, `defense`, `movement`.
    fn unit_type(&self, _unit: &str) -> Option<Value> {
        None
    }
}

/// The data behind the scoped `game` userdata.
pub(crate) struct GameHandle<'a> {
    pub view: &'a dyn GameView,
    pub requests: &'a RefCell<Vec<Request>>,
    /// Id of the handler currently running, to attribute requests.
    pub current: &'a RefCell<String>,
}

/// Registers `game.round`, `game.power`, `game.phase` and the methods `owner`, `treasury`,
/// `relation`, `units`, `spaces`, `powers`, `space`, `power_info`, `unit_type`, `request`. No setters: assigning a field of `game` is an error.
pub(crate) fn register(reg: &mut mlua::UserDataRegistry<GameHandle<'_>>) {
    reg.add_field_method_get("round", |_, h| Ok(h.view.round()));
    reg.add_field_method_get("power", |_, h| Ok(h.view.power().to_owned()));
    reg.add_field_method_get("phase", |_, h| Ok(h.view.phase().to_owned()));
    reg.add_method("owner", |_, h, space: String| Ok(h.view.owner(&space)));
    reg.add_method("treasury", |_, h, power: String| Ok(h.view.treasury(&power)));
    reg.add_method("relation", |_, h, (a, b): (String, String)| {
        Ok(h.view.relation(&a, &b))
    });
    reg.add_method("spaces", |_, h, ()| Ok(h.view.spaces()));
    reg.add_method("powers", |_, h, ()| Ok(h.view.powers()));
    let info = |lua: &mlua::Lua, v: Option<Value>, what: &str| -> mlua::Result<mlua::Value> {
        match v {
            None => Ok(mlua::Value::Nil),
            Some(v) => {
                to_lua(lua, &v, what).map_err(|e| super::raise(lua, ScriptErrorKind::Data, e.to_string()))
            }
        }
    };
    reg.add_method("space", move |lua, h, space: String| {
        info(lua, h.view.space(&space), "space")
    });
    reg.add_method("power_info", move |lua, h, power: String| {
        info(lua, h.view.power_info(&power), "power_info")
    });
    reg.add_method("unit_type", move |lua, h, unit: String| {
        info(lua, h.view.unit_type(&unit), "unit_type")
    });
    reg.add_method("units", |lua, h, space: String| {
        let units = h.view.units(&space);
        let list = lua.create_table_with_capacity(units.len(), 0)?;
        for (i, (owner, unit, count)) in units.into_iter().enumerate() {
            let entry = lua.create_table_with_capacity(0, 3)?;
            entry.raw_set("owner", owner)?;
            entry.raw_set("unit", unit)?;
            entry.raw_set("count", count)?;
            list.raw_set(i + 1, entry)?;
        }
        Ok(list)
    });
    reg.add_meta_method(mlua::MetaMethod::NewIndex, |lua, _, (key, _): (mlua::Value, mlua::Value)| {
        let key = key.to_string().unwrap_or_default();
        Err::<(), _>(super::raise(
            lua,
            ScriptErrorKind::Forbidden,
            format!("game.{key} cannot be assigned: the game is read-only to scripts; ask for a change with game:request{{...}}"),
        ))
    });
    reg.add_method("request", |lua, h, command: mlua::Value| {
        if !command.is_table() {
            return Err(super::raise(
                lua,
                ScriptErrorKind::Data,
                format!(
                    "game:request expects a table, got a {}",
                    super::value::lua_type(&command)
                ),
            ));
        }
        let command = from_lua(&command, "request")
            .map_err(|e| super::raise(lua, ScriptErrorKind::Data, e.to_string()))?;
        let by = h.current.borrow().clone();
        h.requests.borrow_mut().push(Request { by, command });
        Ok(())
    });
}
