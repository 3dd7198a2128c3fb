//! `yoo-server store copy`: an operator moves a site from SQLite to PostgreSQL. The players'
//! logins, queue places and balances read the same on the server started on the copy.

use crate::common;
use crate::crash::{on_postgres, spawn, write_config_with};

use std::process::Command;

use common::{temp_dir, Client};
use serde_json::{json, Value};
use storage::testing::{Fresh, FreshPostgres};

async fn state(c: &mut Client) -> Value {
    let (_, r) = c.post("/api/japi/yoo/game/floatBall", json!({})).await;
    assert_eq!(r["code"], 0, "{r}");
    r["data"].clone()
}

/// The server does not start on a PostgreSQL it cannot use: one a newer build migrated, or one
/// that does not answer; it says why and exits.
#[actix_rt::test]
async fn the_server_refuses_a_postgres_it_cannot_migrate() {
    let dir = temp_dir("refuse");
    let config = write_config_with(&dir, "machines = []");
    let db = FreshPostgres::new("refuse");
    let url = db.url().to_owned();
    // opened (migrated) off the test's async thread, as the server opens it off its own
    std::thread::spawn(move || drop(storage::Store::open_postgres(&url, 2).unwrap()))
        .join()
        .unwrap();
    db.execute("INSERT INTO schema_version (version) VALUES (999)");
    let refused = |config: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_yoo-server"))
            .arg("--config")
            .arg(config)
            .env("RUST_LOG", "warn")
            .output()
            .unwrap()
    };
    let newer = refused(&on_postgres(&config, db.url()));
    let err = String::from_utf8_lossy(&newer.stderr);
    assert!(!newer.status.success(), "{newer:?}");
    assert!(err.contains("999") && err.contains("newer"), "{err}");
    assert!(!String::from_utf8_lossy(&newer.stdout).contains("listening"));

    let nobody = refused(&on_postgres(&config, "postgres://postgres@127.0.0.1:1/none"));
    let err = String::from_utf8_lossy(&nobody.stderr);
    assert!(!nobody.status.success(), "{nobody:?}");
    assert!(
        err.contains("cannot open the database postgres://postgres@127.0.0.1:1/none"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A profile without the server's clock.
fn without_time(profile: &Value) -> Value {
    let mut p = profile.clone();
    p.as_object_mut().expect("a profile").remove("systemTime");
    p
}

#[actix_rt::test]
async fn a_site_moved_to_postgres_keeps_logins_places_and_balances() {
    let dir = temp_dir("move");
    // No machine: every player waits in the queue.
    let config = write_config_with(&dir, "machines = []");
    let (server, addr) = spawn(&config);
    let mut players: Vec<Client> = (0..3).map(|i| Client::new(addr, &format!("dev-{i}"))).collect();
    let mut op = Client::new(addr, "operator");
    for (i, p) in players.iter_mut().enumerate() {
        p.login(&format!("1370000000{i}")).await;
        if i == 2 {
            let (_, g) = op
                .post("/api/dev/grant", json!({"cellphone": "13700000002", "kind": "vip", "days": 30}))
                .await;
            assert_eq!(g["code"], 0, "{g}");
        }
        let (_, r) = p
            .post("/api/japi/yoo/game/start", json!({"gameId": 1, "nodeId": 1, "nodeDelay": "[]"}))
            .await;
        assert_eq!(r["code"], 0, "{r}");
    }
    let mut before = vec![];
    for p in players.iter_mut() {
        let s = state(p).await;
        let (_, profile) = p.get("/api/user/profile").await;
        before.push((s, without_time(&profile["data"])));
    }
    assert_eq!(before[2].0["sort"], 1, "the VIP waits first: {}", before[2].0);
    drop(server); // the site stops for the move

    // A target that is not a store is refused with the usage, and nothing runs.
    let bad = Command::new(env!("CARGO_BIN_EXE_yoo-server"))
        .args(["store", "copy", "--from", "nowhere", "--to", "elsewhere"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");

    let db = FreshPostgres::new("move");
    let from = format!("sqlite:{}", dir.join("data").display());
    let copied = Command::new(env!("CARGO_BIN_EXE_yoo-server"))
        .args(["store", "copy", "--from", &from, "--to", db.url()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&copied.stdout);
    assert!(copied.status.success(), "{copied:?}");
    assert!(out.contains("users\t3"), "{out}");

    // Copying again onto the database that now holds the players is refused.
    let again = Command::new(env!("CARGO_BIN_EXE_yoo-server"))
        .args(["store", "copy", "--from", &from, "--to", db.url()])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("nothing was written"));

    let (_server, addr) = spawn(&on_postgres(&config, db.url()));
    for (i, p) in players.iter_mut().enumerate() {
        p.base = format!("http://{addr}");
        let after = state(p).await;
        let (b, profile_before) = &before[i];
        for field in ["id", "gameId", "status", "sort", "isFast", "nodeId"] {
            assert_eq!(after[field], b[field], "player {i} field {field}: before {b} after {after}");
        }
        let (_, profile) = p.get("/api/user/profile").await;
        assert_eq!(profile["code"], 0, "player {i} is still logged in: {profile}");
        assert_eq!(&without_time(&profile["data"]), profile_before, "player {i}'s profile and balances");
    }
    let _ = std::fs::remove_dir_all(dir);
}
