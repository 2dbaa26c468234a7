//! The Lua host: sandboxed scripts, named chunks, the event catalogue.
