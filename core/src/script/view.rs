//! The read-only window handlers get onto the game (`game` in a handler), valid only during
//! one dispatch (principle §5: nothing a script keeps outlives the call).

use std::cell::RefCell;

use mlua::UserDataFields;

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
    /// The dispatch's lazy payload fields, which a handler's payload asks for through the
    /// handle (`payload`).
    pub lazy: &'a super::payload::Lazy<'a>,
    /// The private first argument of those asks.
    pub lazy_key: &'a mlua::Table,
}

/// The handle a handler gets as `game`: a userdata of a type registered once per host (so
/// making one per dispatch is cheap), whose members ask the dispatch in progress. A dispatch
/// puts its answering function in `slot[1]` and its handle in `slot[2]`; a handle kept from an
/// earlier dispatch is not `slot[2]` and answers nothing.
pub(crate) struct GameProxy;

/// Registers [`GameProxy`]: `game.round` and the other values ask the dispatch's function with
/// their name, `game.owner` and the other methods are small Lua functions that do the same,
/// assigning is an error. Returns the slot the dispatches fill (and the lazy payloads read:
/// `payload.rs`).
pub(crate) fn register_game(lua: &mlua::Lua) -> mlua::Result<mlua::Table> {
    const INDEX: &str = r#"
local values, methods, unknown, slot = ...
-- The dispatch's answering function, if `self` is the handle of the dispatch in progress.
local function current(self)
    local answer = slot[1]
    if answer == nil or slot[2] ~= self then
        error("this game handle was given to an earlier handler call: use the `game` of the call that is running", 3)
    end
    return answer
end
local is_value = {}
for _, name in ipairs(values) do
    is_value[name] = true
end
local method = {}
for _, name in ipairs(methods) do
    method[name] = function(self, ...)
        if type(self) ~= "userdata" then
            error("call it as game:" .. name .. "(...), with a colon", 2)
        end
        return current(self)(name, ...)
    end
end
return function(self, key)
    if is_value[key] then
        return current(self)(key)
    end
    local m = method[key]
    if m == nil then
        unknown(key)
    end
    return m
end
"#;
    let names = |kind: api::MemberKind| -> Vec<&'static str> {
        api::GAME
            .iter()
            .filter(|m| m.kind == kind)
            .map(|m| m.name)
            .collect()
    };
    let unknown = lua.create_function(|lua, key: mlua::Value| {
        let key = key.to_string().unwrap_or_default();
        let known: Vec<&str> = api::GAME.iter().map(|m| m.name).collect();
        Err::<(), _>(super::raise(
            lua,
            ScriptErrorKind::Runtime,
            format!(
                "game has no member '{key}'{}",
                super::did_you_mean(&key, known.iter().copied())
            ),
        ))
    })?;
    let slot = lua.create_table()?;
    let index: mlua::Function = lua.load(INDEX).set_name("=warroom game").call((
        names(api::MemberKind::Value),
        names(api::MemberKind::Method),
        unknown,
        slot.clone(),
    ))?;
    let new_index = lua.create_function(|lua, (_, key): (mlua::Value, mlua::Value)| {
        let key = key.to_string().unwrap_or_default();
        Err::<(), _>(super::raise(
            lua,
            ScriptErrorKind::Forbidden,
            format!("game.{key} cannot be assigned: the game is read-only to scripts; ask for a change with game:request{{...}}"),
        ))
    })?;
    lua.register_userdata_type::<GameProxy>(|reg| {
        reg.add_meta_field(mlua::MetaMethod::Index, index);
        reg.add_meta_field(mlua::MetaMethod::NewIndex, new_index);
    })?;
    Ok(slot)
}

/// What the dispatch's answering function does with `(name, args...)`: exactly the members of
/// `game` the catalogue lists (`api::GAME`: `round`, `power`, `phase` and the methods `owner`,
/// `start_owner`, `treasury`, `relation`, `units`, `units_of`, `each_unit`, `unit`,
/// `start_units`, `battles`, `spaces`, `powers`, `space`, `power_info`, `unit_type`,
/// `request`); or, asked with the private `lazy_key` by a payload, a lazy payload field.
pub(crate) fn answer(
    lua: &mlua::Lua,
    h: &GameHandle,
    name: mlua::Value,
    args: mlua::MultiValue,
) -> mlua::Result<mlua::MultiValue> {
    match name {
        mlua::Value::String(name) => member(lua, h, &name.to_str()?, args),
        mlua::Value::Table(t) if t.to_pointer() == h.lazy_key.to_pointer() => {
            let (field, ev): (Option<mlua::LuaString>, mlua::Table) = lua.unpack_multi(args)?;
            let field = field.as_ref().map(|f| f.as_bytes());
            h.lazy
                .fill(lua, field.as_deref(), &ev)
                .and_then(|v| mlua::IntoLuaMulti::into_lua_multi(v, lua))
        }
        other => Err(mlua::Error::RuntimeError(format!(
            "game members are read as game.round or called as game:owner(space), not with a {}",
            super::value::lua_type(&other)
        ))),
    }
}

/// One member of `game`, by name: a value (`round`) or a method's answer to `args`.
fn member(
    lua: &mlua::Lua,
    h: &GameHandle,
    name: &str,
    args: mlua::MultiValue,
) -> mlua::Result<mlua::MultiValue> {
    use mlua::IntoLuaMulti;
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
    // The arguments of `game:NAME(...)`, with the method named when they are wrong.
    fn args_of<A: mlua::FromLuaMulti>(
        lua: &mlua::Lua,
        name: &str,
        args: mlua::MultiValue,
    ) -> mlua::Result<A> {
        lua.unpack_multi(args)
            .map_err(|e| mlua::Error::RuntimeError(format!("bad arguments to game:{name}: {e}")))
    }
    let v = &h.view;
    match name {
        "round" => v.round().into_lua_multi(lua),
        "power" => v.power().into_lua_multi(lua),
        "phase" => v.phase().into_lua_multi(lua),
        "owner" => v.owner(&args_of::<String>(lua, name, args)?).into_lua_multi(lua),
        "start_owner" => v
            .start_owner(&args_of::<String>(lua, name, args)?)
            .into_lua_multi(lua),
        "units_of" => stacks(
            lua,
            v.units_of(&args_of::<String>(lua, name, args)?),
            ["space", "unit"],
        )?
        .into_lua_multi(lua),
        "each_unit" => {
            infos(lua, v.each_unit(&args_of::<String>(lua, name, args)?), "UnitInfo")?.into_lua_multi(lua)
        }
        "unit" => {
            let id: f64 = args_of(lua, name, args)?;
            let unit = (id.fract() == 0.0 && id.abs() < 9e15)
                .then(|| v.unit(id as i64))
                .flatten();
            info(lua, unit, "UnitInfo")?.into_lua_multi(lua)
        }
        "start_units" => stacks(
            lua,
            v.start_units(&args_of::<String>(lua, name, args)?),
            ["owner", "unit"],
        )?
        .into_lua_multi(lua),
        "battles" => {
            args_of::<()>(lua, name, args)?;
            infos(lua, v.battles(), "BattleInfo")?.into_lua_multi(lua)
        }
        "treasury" => v
            .treasury(&args_of::<String>(lua, name, args)?)
            .into_lua_multi(lua),
        "relation" => {
            let (a, b): (String, String) = args_of(lua, name, args)?;
            v.relation(&a, &b).into_lua_multi(lua)
        }
        "spaces" => {
            args_of::<()>(lua, name, args)?;
            v.spaces().into_lua_multi(lua)
        }
        "powers" => {
            args_of::<()>(lua, name, args)?;
            v.powers().into_lua_multi(lua)
        }
        "space" => info(lua, v.space(&args_of::<String>(lua, name, args)?), "SpaceInfo")?.into_lua_multi(lua),
        "power_info" => info(
            lua,
            v.power_info(&args_of::<String>(lua, name, args)?),
            "PowerInfo",
        )?
        .into_lua_multi(lua),
        "unit_type" => info(
            lua,
            v.unit_type(&args_of::<String>(lua, name, args)?),
            "UnitTypeInfo",
        )?
        .into_lua_multi(lua),
        "units" => stacks(
            lua,
            v.units(&args_of::<String>(lua, name, args)?),
            ["owner", "unit"],
        )?
        .into_lua_multi(lua),
        "request" => {
            let command: mlua::Value = args_of(lua, name, args)?;
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
            ().into_lua_multi(lua)
        }
        other => Err(mlua::Error::RuntimeError(format!("game has no member '{other}'"))),
    }
}
