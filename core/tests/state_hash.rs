//! The state hash: each space keeps its own hash while it is unchanged (hash schemes 2 and 3), so the
//! cache must follow every change, and states sharing a space must not see each other's.

mod support;

use std::sync::Arc;
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, SpaceId};

fn game() -> Game {
    let req = LoadRequest::new(support::editions(), "1941");
    let rules = Arc::new(rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems)));
    Game::new(rules, "1941", &[], None, 7).expect("1941 starts")
}

/// The first space holding units.
fn occupied(g: &Game) -> SpaceId {
    let i = g
        .state()
        .spaces
        .iter()
        .position(|sp| !sp.units.is_empty())
        .expect("units on the board");
    SpaceId(i as u16)
}

#[test]
fn a_changed_space_changes_the_hash_of_its_state_only() {
    let g = game();
    let before = g.state().hash();
    let mut changed = g.state().clone();
    let at = occupied(&g);
    // Both kinds of change: a space shared with `g` (copied first) and one the copy holds
    // alone, with its hash already cached (changed in place).
    changed.space_mut(at).units.pop();
    assert_eq!(changed.hash(), changed.hash_uncached());
    changed.space_mut(at).units.pop();
    assert_ne!(
        changed.hash(),
        before,
        "a unit gone from a space changes the hash"
    );
    assert_eq!(
        changed.hash(),
        changed.hash_uncached(),
        "the changed space's hash is current"
    );
    assert_eq!(
        g.state().hash(),
        before,
        "the state the copy came from is untouched"
    );
    assert_eq!(g.state().hash(), g.state().hash_uncached());
}

#[test]
fn the_hash_after_commands_is_the_hash_computed_afresh() {
    let mut g = game();
    for cmd in ["buy 2 infantry", "end phase", "end phase", "end phase"] {
        g.execute(cmd).unwrap_or_else(|e| panic!("`{cmd}`: {e}"));
        assert_eq!(g.state().hash(), g.state().hash_uncached(), "after `{cmd}`");
    }
    let mut other = game();
    for cmd in ["buy 2 infantry", "end phase", "end phase", "end phase"] {
        other.execute(cmd).expect("the same commands");
    }
    assert_eq!(g.hash(), other.hash(), "the same commands give the same hash");
}

#[test]
fn older_hash_schemes_are_still_computed_for_older_files() {
    let g = game();
    // Scheme 1 is FNV-1a over the whole state's encoding; scheme 2 differs by construction,
    // scheme 3 packs the start of turn control scheme 2 mixes a space at a time, and scheme 4
    // adds what units carry since (the blitz mark, scripts' tags).
    assert_ne!(g.hash_in_scheme(1), g.hash_in_scheme(2));
    assert_ne!(g.hash_in_scheme(2), g.hash_in_scheme(3));
    assert_ne!(g.hash_in_scheme(3), g.hash_in_scheme(4));
    assert_eq!(g.hash_in_scheme(4), g.hash());
    // The older schemes do not see what scheme 4 added, and read no hash it cached.
    let mut tagged = g.state().clone();
    let at = occupied(&g);
    let v3 = tagged.hash_v3();
    let v4 = tagged.hash();
    tagged.space_mut(at).units[0].tags.set("veteran", 1);
    tagged.space_mut(at).units[0].marks.blitzed = true;
    assert_eq!(tagged.hash_v3(), v3, "scheme 3 ignores tags and blitzes");
    assert_ne!(tagged.hash(), v4, "scheme 4 sees them");
    assert_eq!(tagged.hash(), tagged.hash_uncached());
    assert_eq!(tagged.hash_v3(), v3, "scheme 3 after scheme 4 cached its hashes");
    assert_eq!(g.state().hash_v1(), g.state().clone().hash_v1());
}

/// A recording written before hash scheme 2 has no `hash_scheme` key and holds scheme 1
/// hashes; one written by a build of save format 2 says `hash_scheme = 2`. Both still replay
/// clean; the same hashes declared as the next scheme diverge at once.
#[test]
fn recordings_of_older_hash_schemes_replay_clean() {
    use warroom_core::scenario::{self, RulesCache};
    let dir = std::env::temp_dir().join(format!("warroom-hash-scheme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cache = RulesCache::new(support::editions());
    for scheme in [1, 2] {
        let mut g = game();
        let mut steps = String::new();
        for cmd in ["buy 2 infantry", "end phase", "end phase", "end phase"] {
            let out = g.execute(cmd).expect(cmd);
            let out: Vec<String> = out.iter().map(|l| format!("{l:?}")).collect();
            steps.push_str(&format!(
                "  {{ command = {cmd:?}, hash = \"{:016x}\", output = [{}] }},\n",
                g.hash_in_scheme(scheme),
                out.join(", ")
            ));
        }
        let replayed = |header: &str, name: &str| {
            let file = dir.join(name);
            let text = format!("edition = \"1941\"\nseed = 7\n{header}steps = [\n{steps}]\n");
            std::fs::write(&file, text).unwrap();
            let case = scenario::load(&file, &[], &|h| cache.get(h))
                .unwrap_or_else(|(_, p)| panic!("{:?}", p.iter().map(|p| &p.message).collect::<Vec<_>>()));
            scenario::replay(&case, None)
        };
        let header = if scheme == 1 {
            String::new()
        } else {
            format!("hash_scheme = {scheme}\n")
        };
        let old = replayed(&header, &format!("scheme-{scheme}.toml"));
        assert_eq!(
            (old.replayed, old.steps),
            (4, 4),
            "scheme {scheme}: {:?}",
            old.error
        );
        assert!(old.divergence.is_none(), "scheme {scheme}");
        let next = scheme + 1;
        let mislabelled = replayed(&format!("hash_scheme = {next}\n"), &format!("as-{next}.toml"));
        assert_eq!(
            mislabelled.replayed, 0,
            "scheme {scheme} hashes are not scheme {next} hashes"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
