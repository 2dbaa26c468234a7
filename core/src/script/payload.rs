//! How an event's payload reaches its handlers (docs/events.md, "What a handler gets").
//!
//! A dispatch makes the payload into a Lua table once, its *template*, with its strings from
//! the host's cache (`value::Strings`). Each handler then gets a deep copy of the template,
//! made in Lua by [`Runner`]: one handler cannot change what the next one sees, and the copy
//! costs no protected call per field. The host keeps the template from one dispatch to the
//! next and changes only the fields that differ (`ScriptHost::template`), so no handler may
//! have it itself.
//!
//! Lazy fields (`LazyFields`: a battle's `combatants`) are not in the template. The copy a
//! handler gets has a metatable while the handler runs: reading such a field asks the dispatch's
//! `game` handle for it (`view::GameHandle::lazy`), which works it out once per dispatch and
//! puts it in that handler's table; `for k, v in ev` puts them all in first. The metatable is
//! taken off when the handler returns, so an `ev` kept in the store is plain data.

use std::cell::OnceCell;

use super::event::{EventKind, LazyFields};
use super::value::{self, Value};

/// The Lua half: `make(key, value, ...)` builds a template; `run(handler, template, game,
/// lazy, answer)` copies the template, calls the handler
/// and returns what it returned. `slot[1]` is the answering function of the dispatch in
/// progress (`view::answer`), which the payload's metatable asks for lazy fields, naming itself
/// with the private `key`; `slot[2]` is its `game` handle. `run` fills the slot for the
/// handler and empties it when the handler returns: from Lua, a table's fields are set without
/// the protected call each costs from Rust. (A handler that fails leaves them; the host empties
/// them then.)
const RUNNER: &str = r##"
local slot, key = ...
local clone, setmetatable, type, next, select = table.clone, setmetatable, type, next, select

-- A table from `key, value, key, value, ...`.
local function make(...)
    local t = {}
    for i = 1, select("#", ...), 2 do
        local k, v = select(i, ...)
        t[k] = v
    end
    return t
end

local function copy(t)
    local c = clone(t)
    for k, v in c do
        if type(v) == "table" then
            c[k] = copy(v)
        end
    end
    return c
end

local meta = {
    __index = function(ev, field)
        local answer = slot[1]
        if answer ~= nil then
            return answer(key, field, ev)
        end
        return nil
    end,
    __iter = function(ev)
        local answer = slot[1]
        if answer ~= nil then
            answer(key, nil, ev)
        end
        return next, ev
    end,
}

local function run(handler, template, game, lazy, answer)
    local ev = copy(template)
    if lazy then
        setmetatable(ev, meta)
    end
    slot[1], slot[2] = answer, game
    local result = handler(ev, game)
    slot[1], slot[2] = nil, nil
    if lazy then
        setmetatable(ev, nil)
    end
    return result
end

return run, make
"##;

/// What the host keeps to hand payloads to handlers.
pub(crate) struct Runner {
    /// `run(handler, template, game, lazy, answer)`.
    pub run: mlua::Function,
    /// `make(key, value, ...)`: a payload's template (`value::payload_to_lua`).
    pub make: mlua::Function,
    /// `[1]`: the answering function of the dispatch in progress; `[2]`: its `game` handle
    /// (`view::register_game`).
    pub slot: mlua::Table,
    /// The private first argument with which a payload asks the handle for a lazy field.
    pub key: mlua::Table,
}

impl Runner {
    pub fn new(lua: &mlua::Lua, slot: mlua::Table) -> mlua::Result<Runner> {
        let key = lua.create_table()?;
        let (run, make) = lua
            .load(RUNNER)
            .set_name("=warroom payload")
            .call((slot.clone(), key.clone()))?;
        Ok(Runner { run, make, slot, key })
    }
}

/// The lazy fields of one dispatch, each worked out on first use.
pub(crate) struct Lazy<'a> {
    pub fields: &'a dyn LazyFields,
    pub built: Vec<OnceCell<Value>>,
    pub kind: EventKind,
}

impl<'a> Lazy<'a> {
    pub fn new(fields: &'a dyn LazyFields, kind: EventKind) -> Lazy<'a> {
        let names = fields.names();
        debug_assert!(
            names.iter().all(|n| kind.payload().iter().any(|f| f.name == *n)),
            "lazy fields {names:?} of `{kind}`: each in the catalogue"
        );
        Lazy {
            fields,
            built: names.iter().map(|_| OnceCell::new()).collect(),
            kind,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.built.is_empty()
    }

    /// The field `name`'s value, if it is a lazy one.
    pub fn get(&self, name: &str) -> Option<&Value> {
        let i = self.fields.names().iter().position(|n| *n == name)?;
        Some(self.value(i))
    }

    fn value(&self, i: usize) -> &Value {
        self.built[i].get_or_init(|| {
            let v = self.fields.build(i);
            debug_assert!(
                self.kind
                    .payload()
                    .iter()
                    .any(|f| f.name == self.fields.names()[i] && f.ty.admits(&v)),
                "lazy payload field `{}` = {v:?} does not have its catalogued type",
                self.fields.names()[i]
            );
            v
        })
    }

    /// Puts the lazy field `name` (all of them missing from `ev` when `None`) into the
    /// handler's table `ev`; returns the field's value.
    pub fn fill(&self, lua: &mlua::Lua, name: Option<&[u8]>, ev: &mlua::Table) -> mlua::Result<mlua::Value> {
        let names = self.fields.names();
        let put = |i: usize| -> mlua::Result<mlua::Value> {
            let path = format!("payload.{}", names[i]);
            let v = value::to_lua(lua, self.value(i), &path)
                .map_err(|e| mlua::Error::RuntimeError(e.to_string()))?;
            ev.raw_set(names[i], &v)?;
            Ok(v)
        };
        match name {
            Some(name) => match names.iter().position(|n| n.as_bytes() == name) {
                Some(i) => put(i),
                None => Ok(mlua::Value::Nil),
            },
            None => {
                for (i, n) in names.iter().enumerate() {
                    if ev.raw_get::<mlua::Value>(*n)?.is_nil() {
                        put(i)?;
                    }
                }
                Ok(mlua::Value::Nil)
            }
        }
    }
}
