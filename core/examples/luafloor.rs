//! The floor under a battle script's cost: what mlua charges to call an empty Luau function,
//! alone (`plain`) and inside a scope with one callback (`scope`), the two things every
//! dispatch to a handler must do. Count instructions with valgrind, not the clock:
//!
//! ```text
//! cargo build --release -p warroom-core --example luafloor
//! valgrind --tool=lackey --basic-counts=yes target/release/examples/luafloor 10001 plain
//! valgrind --tool=lackey --basic-counts=yes target/release/examples/luafloor 1 plain
//! ```
//!
//! The difference divided by 10 000 is one call. ARCHITECTURE.md's speed note uses it to show
//! why a handler on every combat step cannot cost under 1.5 times the hook-free battle.

fn main() -> mlua::Result<()> {
    let mut args = std::env::args().skip(1);
    let calls: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let scoped = args.next().as_deref() == Some("scope");
    let lua = mlua::Lua::new();
    let handler: mlua::Function = lua.load("return function(ev, game) end").eval()?;
    let ev = lua.create_table()?;
    for _ in 0..calls {
        if scoped {
            lua.scope(|s| {
                let answer = s.create_function(|_, ()| Ok(1))?;
                handler.call::<()>((&ev, answer))
            })?;
        } else {
            handler.call::<()>((&ev, mlua::Value::Nil))?;
        }
    }
    Ok(())
}
