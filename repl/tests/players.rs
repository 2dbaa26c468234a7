//! Players and seats (AA50-PLAYERS; the 1941 rulebook's own rule, which has no ID): `warroom
//! play --players N` and the `players` / `seat` commands deal the powers to the players by the
//! edition's `[players]` data, the shell says who takes over when the turn passes to another
//! player, `status` lists the seats, and saves keep them.

mod support;
use support::{text, view, warroom};

fn seating(edition: &str, players: u32) -> Vec<String> {
    let n = players.to_string();
    let o = warroom(&["play", edition, "--players", &n, "--strict"], "players\n");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    view(&t, "players").iter().map(|l| l.to_string()).collect()
}

/// "In a six-player game, Italy should have its own dedicated player. In a game with less than
/// six players, the player who is playing Germany should also play Italy"; "China and its units
/// are controlled by the U.S. player"; a player's powers are all on one side.
#[test]
fn anniversary_deals_two_to_six_players_germany_with_italy_below_six_china_with_the_us() {
    assert_eq!(
        seating("anniversary", 2),
        [
            "  Player 1: Germany, Japan, Italy (to play)",
            "  Player 2: Soviet Union, United Kingdom, United States, China",
        ]
    );
    assert_eq!(
        seating("anniversary", 3),
        [
            "  Player 1: Germany, Japan, Italy (to play)",
            "  Player 2: Soviet Union, United Kingdom",
            "  Player 3: United States, China",
        ]
    );
    assert_eq!(
        seating("anniversary", 4),
        [
            "  Player 1: Germany, Italy (to play)",
            "  Player 2: Soviet Union, United Kingdom",
            "  Player 3: Japan",
            "  Player 4: United States, China",
        ]
    );
    assert_eq!(
        seating("anniversary", 5),
        [
            "  Player 1: Germany, Italy (to play)",
            "  Player 2: Soviet Union",
            "  Player 3: Japan",
            "  Player 4: United Kingdom",
            "  Player 5: United States, China",
        ]
    );
    assert_eq!(
        seating("anniversary", 6),
        [
            "  Player 1: Germany (to play)",
            "  Player 2: Soviet Union",
            "  Player 3: Japan",
            "  Player 4: United Kingdom",
            "  Player 5: Italy",
            "  Player 6: United States, China",
        ]
    );
}

/// 1941 (002): "Up to five people can play"; "In a five-player game, each player controls one
/// world power"; more than one power to a player only on one side.
#[test]
fn the_1941_edition_deals_two_to_five_players_one_side_each() {
    assert_eq!(
        seating("1941", 5),
        [
            "  Player 1: Soviet Union (to play)",
            "  Player 2: Germany",
            "  Player 3: United Kingdom",
            "  Player 4: Japan",
            "  Player 5: United States",
        ]
    );
    assert_eq!(
        seating("1941", 2),
        [
            "  Player 1: Soviet Union, United Kingdom, United States (to play)",
            "  Player 2: Germany, Japan",
        ]
    );
    let o = warroom(&["play", "1941", "--players", "6"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("--players 6: Axis & Allies 1941 is played by 2 to 5 players, not 6"),
        "{}",
        text(&o)
    );
}

/// Europe 1940 (000 · Summary of Play; France): up to five players, each on one side; France is
/// played by the United Kingdom's player (the rulebook's "US or UK player").
#[test]
fn europe_1940_deals_two_to_five_players_france_with_the_united_kingdom_e40_powers() {
    assert_eq!(
        seating("europe1940", 2),
        [
            "  Player 1: Germany, Italy (to play)",
            "  Player 2: Soviet Union, United States, United Kingdom, France",
        ]
    );
    assert_eq!(
        seating("europe1940", 5),
        [
            "  Player 1: Germany (to play)",
            "  Player 2: Soviet Union",
            "  Player 3: United States",
            "  Player 4: United Kingdom, France",
            "  Player 5: Italy",
        ]
    );
    let o = warroom(&["play", "europe1940", "--players", "6"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("is played by 2 to 5 players, not 6"),
        "{}",
        text(&o)
    );
}

/// Pacific 1940 (003: China "controlled by one of the Allied players"): up to four players, each
/// on one side; China with the United States.
#[test]
fn pacific_1940_deals_two_to_four_players_china_with_the_united_states() {
    assert_eq!(
        seating("pacific1940", 2),
        [
            "  Player 1: Japan (to play)",
            "  Player 2: United States, China, United Kingdom, ANZAC",
        ]
    );
    assert_eq!(
        seating("pacific1940", 4),
        [
            "  Player 1: Japan (to play)",
            "  Player 2: United States, China",
            "  Player 3: United Kingdom",
            "  Player 4: ANZAC",
        ]
    );
    let o = warroom(&["play", "pacific1940", "--players", "5"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("is played by 2 to 4 players, not 5"),
        "{}",
        text(&o)
    );
}

/// Global 1940 (000 · Number of Players; G40-PLAYERS): the rulebook's seating for each count
/// from two to six, UK Pacific (an economy) and the Netherlands (no turn) seatless.
#[test]
fn global_1940_deals_two_to_six_players_as_the_rulebook_lists_g40_players() {
    let cases: [(u32, &[&str]); 5] = [
        (
            2,
            &[
                "Germany, Japan, Italy",
                "Soviet Union, United States, China, United Kingdom, ANZAC, France",
            ],
        ),
        (
            3,
            &[
                "Germany, Japan, Italy",
                "Soviet Union, United States, China",
                "United Kingdom, ANZAC, France",
            ],
        ),
        (
            4,
            &[
                "Germany, Japan, Italy",
                "Soviet Union, France",
                "United States, China",
                "United Kingdom, ANZAC",
            ],
        ),
        (
            5,
            &[
                "Germany, Italy",
                "Soviet Union, France",
                "Japan",
                "United States, China",
                "United Kingdom, ANZAC",
            ],
        ),
        (
            6,
            &[
                "Germany",
                "Soviet Union, France",
                "Japan",
                "United States, China",
                "United Kingdom, ANZAC",
                "Italy",
            ],
        ),
    ];
    for (n, players) in cases {
        let want: Vec<String> = players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let to_play = if i == 0 { " (to play)" } else { "" };
                format!("  Player {}: {p}{to_play}", i + 1)
            })
            .collect();
        assert_eq!(seating("global1940", n), want, "{n} players");
    }
    let o = warroom(&["play", "global1940", "--players", "7"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("is played by 2 to 6 players, not 7"),
        "{}",
        text(&o)
    );
}

#[test]
fn an_impossible_number_of_players_is_refused_and_the_seats_stay() {
    for n in ["1", "7"] {
        let o = warroom(&["play", "anniversary", "--players", n], "");
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        assert!(
            text(&o).contains(&format!(
                "--players {n}: Axis & Allies Anniversary Edition is played by 2 to 6 players, not {n}"
            )),
            "{}",
            text(&o)
        );
    }
    let o = warroom(
        &["play", "anniversary", "--players", "4"],
        "players 9\nplayers\nseat 3 Italy\nseat 2 Japan\nseat 4 China\nplayers\n",
    );
    let t = text(&o);
    assert!(
        t.contains("rejected: Axis & Allies Anniversary Edition is played by 2 to 6 players, not 9"),
        "{t}"
    );
    // Italy goes with Germany below six players: moving it would leave Germany's player empty.
    assert!(
        t.contains("rejected: Player 1 would have no power left; `players 3` deals for one player fewer"),
        "{t}"
    );
    assert!(
        t.contains(
            "rejected: Japan is of the Axis and Player 2 plays the Allies: a player's powers are all on one side"
        ),
        "{t}"
    );
    assert!(t.contains("rejected: Player 4 already plays China"), "{t}");
    assert_eq!(view(&t, "players"), seating("anniversary", 4));
}

/// Moving a power moves the powers it must be played with: China goes with the United States.
#[test]
fn seat_gives_a_power_and_its_partners_to_another_player() {
    let o = warroom(
        &["play", "anniversary", "--players", "3", "--strict"],
        "seat 3 \"United Kingdom\"\nseat 2 China\nplayers\n",
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert_eq!(
        view(&t, "seat 2 China")[0],
        "Player 2 plays United States, China now"
    );
    assert_eq!(
        view(&t, "players"),
        [
            "  Player 1: Germany, Japan, Italy (to play)",
            "  Player 2: Soviet Union, United States, China",
            "  Player 3: United Kingdom",
        ]
    );
}

/// The shell names the player who takes over each time the turn passes to another player; China's
/// part of the US turn is the US player's, so nothing is announced within that turn.
#[test]
fn the_hand_over_to_another_player_is_announced() {
    let round = "end phase\n".repeat(40);
    let o = warroom(
        &["play", "anniversary", "--players", "4", "--strict"],
        &format!("{round}status\n"),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let handovers: Vec<&str> = t.lines().filter(|l| l.ends_with(" to play")).collect();
    assert_eq!(
        handovers,
        [
            "Player 1 (Germany, Italy) to play",
            "Player 2 (Soviet Union, United Kingdom) to play",
            "Player 3 (Japan) to play",
            "Player 2 (Soviet Union, United Kingdom) to play",
            "Player 1 (Germany, Italy) to play",
            "Player 4 (United States, China) to play",
            "Player 1 (Germany, Italy) to play",
        ]
    );
    let status = view(&t, "status");
    assert!(
        status.contains(&"  Player 1: Germany, Italy (to play)"),
        "{status:#?}"
    );
    assert!(
        status.contains(&"  Player 4: United States, China"),
        "{status:#?}"
    );
}

#[test]
fn the_seats_are_kept_in_a_save() {
    let dir = std::env::temp_dir().join(format!("warroom-seats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("seats.toml");
    let o = warroom(
        &["play", "anniversary", "--players", "3", "--strict"],
        &format!(
            "seat 3 \"Soviet Union\"\nend phase\nplayers\nsave {}\n",
            save.display()
        ),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let before = view(&t, "players");
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(
        saved.contains(
            r#"players = [["Germany", "Japan", "Italy"], ["United Kingdom"], ["Soviet Union", "United States", "China"]]"#
        ),
        "{saved}"
    );
    let o = warroom(&["play", "--load", save.to_str().unwrap()], "players\n");
    let loaded = text(&o);
    assert!(o.status.success(), "{loaded}");
    assert!(
        loaded.contains("Player 1 (Germany, Japan, Italy) to play"),
        "{loaded}"
    );
    assert_eq!(view(&loaded, "players"), before);
    // A seating that breaks the rules is a located error, not a game.
    let broken = saved.replace(r#"["United Kingdom"]"#, r#"["United Kingdom", "Italy"]"#);
    let broken = broken.replace(r#"["Germany", "Japan", "Italy"]"#, r#"["Germany", "Japan"]"#);
    std::fs::write(&save, broken).unwrap();
    let o = warroom(&["play", "--load", save.to_str().unwrap()], "");
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("the saved seating breaks the rules"), "{t}");
    assert!(t.contains("seats.toml:"), "{t}");
    std::fs::remove_dir_all(&dir).ok();
}
