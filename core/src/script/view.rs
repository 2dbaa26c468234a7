//! The read-only window handlers get onto the game (`game` in a handler), valid only during
//! one dispatch (principle §5: nothing a script keeps outlives the call).

use std::cell::RefCell;

use mlua::{UserDataFields, UserDataMethods};

use super::api;
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
    /// Who controlled `space` when the turn began (`None` for an unknown space or one nobody
    /// held).
    fn start_owner(&self, _space: &str) -> Option<String> {
        None
    }
    /// Every unit of `power` on the board as `(space, unit type, count)`, by space in board
    /// order (empty for an unknown power).
    fn units_of(&self, _power: &str) -> Vec<(String, String, u32)> {
        Vec::new()
    }
    /// The units in `space` one by one (`UnitInfo` tables), in the engine's order.
    fn each_unit(&self, _space: &str) -> Vec<Value> {
        Vec::new()
    }
    /// One unit by its id (`UnitInfo`), wherever it is on the board.
    fn unit(&self, _id: i64) -> Option<Value> {
        None
    }
    /// Units that stood in `space` when the turn began, as [`GameView::units`] gives them.
    fn start_units(&self, _space: &str) -> Vec<(String, String, u32)> {
        Vec::new()
    }
    /// The battles and raids announced this turn (`BattleInfo` tables), in order.
    fn battles(&self) -> Vec<Value> {
        Vec::new()
    }
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
    /// `victory_city` (`""` for none), `island`, `neutral`, `neutral_kind`, `adjacent`, `facilities`.
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

/// Registers exactly the members of `game` the catalogue lists (`api::GAME`: `round`, `power`,
/// `phase` and the methods `owner`, `start_owner`, `treasury`, `relation`, `units`,
/// `units_of`, `each_unit`, `unit`, `start_units`, `battles`, `spaces`, `powers`, `space`, `power_info`, `unit_type`, `request`). No setters: assigning a field of `game` is an
/// error.
pub(crate) fn register(reg: &mut mlua::UserDataRegistry<GameHandle<'_>>) {
    // A table the view returns, checked (in debug builds) against the record the catalogue
    // documents for it: nothing undocumented (the engine's view gives every field: game/hooks.rs).
    fn info(lua: &mlua::Lua, v: Option<Value>, record: &str) -> mlua::Result<mlua::Value> {
        match v {
            None => Ok(mlua::Value::Nil),
            Some(v) => {
                debug_assert!(
                    api::record(record).is_some_and(|r| r.admits_part(&v)),
                    "the game view's {record} has fields script::api does not document: {v:?}"
                );
                to_lua(lua, &v, record).map_err(|e| super::raise(lua, ScriptErrorKind::Data, e.to_string()))
            }
        }
    }
    // Records the view returns as a list.
    fn infos(lua: &mlua::Lua, list: Vec<Value>, record: &str) -> mlua::Result<mlua::Table> {
        let t = lua.create_table_with_capacity(list.len(), 0)?;
        for (i, v) in list.into_iter().enumerate() {
            t.raw_set(i + 1, info(lua, Some(v), record)?)?;
        }
        Ok(t)
    }
    // `(a, b, count)` stacks as `{ [keys[0]] = a, [keys[1]] = b, count = n }` tables.
    fn stacks(
        lua: &mlua::Lua,
        list: Vec<(String, String, u32)>,
        keys: [&str; 2],
    ) -> mlua::Result<mlua::Table> {
        let t = lua.create_table_with_capacity(list.len(), 0)?;
        for (i, (a, b, count)) in list.into_iter().enumerate() {
            let entry = lua.create_table_with_capacity(0, 3)?;
            entry.raw_set(keys[0], a)?;
            entry.raw_set(keys[1], b)?;
            entry.raw_set("count", count)?;
            t.raw_set(i + 1, entry)?;
        }
        Ok(t)
    }
    for m in api::GAME {
        match m.name {
            "round" => reg.add_field_method_get(m.name, |_, h| Ok(h.view.round())),
            "power" => reg.add_field_method_get(m.name, |_, h| Ok(h.view.power().to_owned())),
            "phase" => reg.add_field_method_get(m.name, |_, h| Ok(h.view.phase().to_owned())),
            "owner" => reg.add_method(m.name, |_, h, space: String| Ok(h.view.owner(&space))),
            "start_owner" => reg.add_method(m.name, |_, h, space: String| Ok(h.view.start_owner(&space))),
            "units_of" => reg.add_method(m.name, |lua, h, power: String| {
                stacks(lua, h.view.units_of(&power), ["space", "unit"])
            }),
            "each_unit" => reg.add_method(m.name, |lua, h, space: String| {
                infos(lua, h.view.each_unit(&space), "UnitInfo")
            }),
            "unit" => reg.add_method(m.name, |lua, h, id: f64| {
                let unit = (id.fract() == 0.0 && id.abs() < 9e15)
                    .then(|| h.view.unit(id as i64))
                    .flatten();
                info(lua, unit, "UnitInfo")
            }),
            "start_units" => reg.add_method(m.name, |lua, h, space: String| {
                stacks(lua, h.view.start_units(&space), ["owner", "unit"])
            }),
            "battles" => reg.add_method(m.name, |lua, h, ()| infos(lua, h.view.battles(), "BattleInfo")),
            "treasury" => reg.add_method(m.name, |_, h, power: String| Ok(h.view.treasury(&power))),
            "relation" => reg.add_method(m.name, |_, h, (a, b): (String, String)| {
                Ok(h.view.relation(&a, &b))
            }),
            "spaces" => reg.add_method(m.name, |_, h, ()| Ok(h.view.spaces())),
            "powers" => reg.add_method(m.name, |_, h, ()| Ok(h.view.powers())),
            "space" => reg.add_method(m.name, |lua, h, space: String| {
                info(lua, h.view.space(&space), "SpaceInfo")
            }),
            "power_info" => reg.add_method(m.name, |lua, h, power: String| {
                info(lua, h.view.power_info(&power), "PowerInfo")
            }),
            "unit_type" => reg.add_method(m.name, |lua, h, unit: String| {
                info(lua, h.view.unit_type(&unit), "UnitTypeInfo")
            }),
            "units" => reg.add_method(m.name, |lua, h, space: String| {
                stacks(lua, h.view.units(&space), ["owner", "unit"])
            }),
            "request" => reg.add_method(m.name, |lua, h, command: mlua::Value| {
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
            }),
            other => unreachable!("game.{other} is catalogued (script::api) but not registered"),
        }
    }
    reg.add_meta_method(mlua::MetaMethod::NewIndex, |lua, _, (key, _): (mlua::Value, mlua::Value)| {
        let key = key.to_string().unwrap_or_default();
        Err::<(), _>(super::raise(
            lua,
            ScriptErrorKind::Forbidden,
            format!("game.{key} cannot be assigned: the game is read-only to scripts; ask for a change with game:request{{...}}"),
        ))
    });
}
