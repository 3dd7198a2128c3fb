//! Copying a whole store to another (the operator's `yoo-server store copy`): every table of
//! one, as it stands at one moment, into the other, freshly migrated and empty of players.
//!
//! Both are opened (so both are at the latest schema), the source is read in one read
//! transaction (one consistent snapshot, also of a site still running), and the target is
//! written in one transaction: its seeded rows are replaced by the source's, the tables are
//! filled parents first (the foreign keys hold at every insert), SQLite's implicit row ids
//! kept where the order of rows depends on them, and PostgreSQL's identity counters moved
//! past the copied ids. Nothing is written when anything fails.

use std::collections::{BTreeMap, BTreeSet};

use crate::sql::{Conn, Db, Value};
use crate::{Error, Result};

/// What was copied: rows by table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CopyReport {
    pub rows: BTreeMap<String, u64>,
}

/// A table: its columns (with `rowid` where SQLite keeps one the order depends on) and the
/// tables it references.
struct Table {
    name: String,
    columns: Vec<String>,
    parents: BTreeSet<String>,
}

/// The tables of a database (not `schema_version`), parents before children.
fn tables(db: &Db, conn: &Conn<'_>) -> Result<Vec<Table>> {
    let names: Vec<String> = if db.is_pg() {
        conn.query_map(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename",
            (),
            |r| r.get(0),
        )?
        .collect::<Result<_>>()?
    } else {
        conn.query_map(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
            (),
            |r| r.get(0),
        )?
        .collect::<Result<_>>()?
    };
    let mut out = Vec::new();
    for name in names.into_iter().filter(|n| n != "schema_version") {
        let (columns, parents): (Vec<String>, BTreeSet<String>) = if db.is_pg() {
            (
                conn.query_map(
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?1 ORDER BY ordinal_position",
                    [name.as_str()],
                    |r| r.get(0),
                )?
                .collect::<Result<_>>()?,
                conn.query_map(
                    "SELECT DISTINCT ccu.table_name FROM information_schema.table_constraints tc
                     JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name
                     WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() AND tc.table_name = ?1",
                    [name.as_str()],
                    |r| r.get(0),
                )?
                .collect::<Result<_>>()?,
            )
        } else {
            let info = conn.rows("SELECT name, pk, type FROM pragma_table_info(?1) ORDER BY cid", [name.as_str()])?;
            let mut columns = info.iter().map(|r| r.get(0)).collect::<Result<Vec<String>>>()?;
            let int_pk = info
                .iter()
                .any(|r| r.get::<_, i64>(1).unwrap_or(0) > 0 && r.get::<_, String>(2).is_ok_and(|t| t.eq_ignore_ascii_case("INTEGER")));
            let without_rowid: bool = conn.query_row(
                "SELECT sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [name.as_str()],
                |r| r.get(0),
            )?;
            if !int_pk && !without_rowid {
                columns.push("rowid".to_owned());
            }
            let parents = conn
                .query_map("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?1)", [name.as_str()], |r| {
                    r.get(0)
                })?
                .collect::<Result<_>>()?;
            (columns, parents)
        };
        out.push(Table { name, columns, parents });
    }
    // Parents first (a table that names itself is its own parent and does not wait for it).
    let mut ordered: Vec<Table> = Vec::new();
    while !out.is_empty() {
        let placed: BTreeSet<String> = ordered.iter().map(|t| t.name.clone()).collect();
        let ready = out.iter().position(|t| {
            t.parents
                .iter()
                .all(|p| *p == t.name || placed.contains(p) || !out.iter().any(|o| &o.name == p))
        });
        match ready {
            Some(i) => ordered.push(out.remove(i)),
            None => return Err(Error::Backend("the tables' references go round in a circle".into())),
        }
    }
    Ok(ordered)
}

/// Copies every row of `from` into `to`, which must hold no player yet.
pub(crate) fn copy(from: &Db, to: &Db) -> Result<CopyReport> {
    let source = from.lock()?;
    source.execute_batch("BEGIN")?;
    let read = (|| {
        let tables = tables(from, &source)?;
        let mut data = Vec::new();
        for t in tables {
            let rows = source.rows(&format!("SELECT {} FROM {}", t.columns.join(", "), t.name), ())?;
            data.push((t, rows));
        }
        Ok(data)
    })();
    source.execute_batch("COMMIT")?;
    let data = read?;
    drop(source);

    to.write(|tx| {
        let users: i64 = tx.query_row("SELECT COUNT(*) FROM users", (), |r| r.get(0))?;
        if users > 0 {
            return Err(Error::Conflict(format!("the target already holds {users} users: it must be a new database")));
        }
        let target: BTreeMap<String, Vec<String>> = tables(to, tx)?.into_iter().map(|t| (t.name, t.columns)).collect();
        // Children first: the seeded rows go, then everything comes back parents first.
        for (t, _) in data.iter().rev() {
            if target.contains_key(&t.name) {
                tx.execute(&format!("DELETE FROM {}", t.name), ())?;
            }
        }
        let mut report = CopyReport::default();
        for (t, rows) in &data {
            let Some(target_columns) = target.get(&t.name) else {
                return Err(Error::Backend(format!("the target has no table {}", t.name)));
            };
            // rowid: kept where both keep it as a column of its own (SQLite's is implicit).
            let columns: Vec<usize> = (0..t.columns.len())
                .filter(|&i| t.columns[i] != "rowid" || target_columns.iter().any(|c| c == "rowid") || !to.is_pg())
                .collect();
            let names: Vec<&str> = columns.iter().map(|&i| t.columns[i].as_str()).collect();
            let marks: Vec<String> = (1..=names.len()).map(|i| format!("?{i}")).collect();
            let sql = format!("INSERT INTO {} ({}) VALUES ({})", t.name, names.join(", "), marks.join(", "));
            for row in rows {
                let values: Vec<Value> = columns.iter().map(|&i| row.0[i].clone()).collect();
                tx.execute(&sql, values)?;
            }
            report.rows.insert(t.name.clone(), rows.len() as u64);
        }
        if to.is_pg() {
            // Identity counters past the copied ids, so that the next insert gets a new one.
            let identities = tx.rows(
                "SELECT table_name, column_name FROM information_schema.columns
                 WHERE table_schema = current_schema() AND is_identity = 'YES'",
                (),
            )?;
            for r in identities {
                let (table, column): (String, String) = (r.get(0)?, r.get(1)?);
                tx.execute_batch(&format!(
                    "SELECT setval(pg_get_serial_sequence('{table}', '{column}'), COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
                ))?;
            }
        }
        Ok(report)
    })
}
