//! The repositories' SQL, written once in the dialect SQLite reads, rewritten for PostgreSQL.
//!
//! Rewritten (outside string literals): `?N` → `$N`; `INSERT OR IGNORE` → `INSERT ... ON
//! CONFLICT DO NOTHING`; `IFNULL` → `COALESCE`; `INSTR` → `STRPOS`; two-argument `MAX`/`MIN` (SQLite's scalar
//! forms) → `GREATEST`/`LEAST`; `SUM(x)` → `CAST(SUM(x) AS BIGINT)` (PostgreSQL sums integers
//! as numeric); `LIKE` → `ILIKE` (SQLite's LIKE ignores ASCII case); `CAST(... AS INTEGER)` →
//! `BIGINT`. In schema text also: `INTEGER PRIMARY KEY [AUTOINCREMENT]` → an identity column,
//! `INTEGER` → `BIGINT`, `REAL` → `DOUBLE PRECISION`, `BLOB` → `BYTEA`.
//!
//! Not rewritten, so not written: `INSERT OR REPLACE` (spell `ON CONFLICT (...) DO UPDATE`),
//! `last_insert_rowid()` (spell `RETURNING`), an integer column used as a condition (spell
//! `x <> 0`), SQLite's date functions, and non-aggregated columns beside a `GROUP BY`.

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A word: keyword, identifier or number.
    Word(String),
    /// A string literal or quoted identifier, copied as it is.
    Quoted(String),
    /// A parameter `?N` (bare `?` numbered as SQLite does: one past the largest so far).
    Param(u32),
    Space(String),
    Punct(char),
}

fn tokens(sql: &str) -> Vec<Tok> {
    let chars: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut last_param = 0u32;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' || c == '"' {
            let mut j = i + 1;
            while j < chars.len() {
                if chars[j] == c {
                    if j + 1 < chars.len() && chars[j + 1] == c {
                        j += 2;
                        continue;
                    }
                    break;
                }
                j += 1;
            }
            let end = (j + 1).min(chars.len());
            out.push(Tok::Quoted(chars[i..end].iter().collect()));
            i = end;
        } else if c == '-' && chars.get(i + 1) == Some(&'-') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '?' {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let n = if j > i + 1 {
                chars[i + 1..j].iter().collect::<String>().parse().unwrap_or(0)
            } else {
                last_param + 1
            };
            last_param = last_param.max(n);
            out.push(Tok::Param(n));
            i = j;
        } else if c.is_whitespace() {
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            out.push(Tok::Space(chars[i..j].iter().collect()));
            i = j;
        } else if c.is_alphanumeric() || c == '_' {
            let mut j = i;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            out.push(Tok::Word(chars[i..j].iter().collect()));
            i = j;
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

fn is_word(t: Option<&Tok>, w: &str) -> bool {
    matches!(t, Some(Tok::Word(x)) if x.eq_ignore_ascii_case(w))
}

/// The index of the next token that is not a space, from `i`.
fn next_solid(toks: &[Tok], mut i: usize) -> usize {
    while matches!(toks.get(i), Some(Tok::Space(_))) {
        i += 1;
    }
    i
}

/// The index of the `)` closing the `(` at `open`.
fn closing(toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct('(') => depth += 1,
            Tok::Punct(')') => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn has_top_level_comma(toks: &[Tok]) -> bool {
    let mut depth = 0;
    for t in toks {
        match t {
            Tok::Punct('(') => depth += 1,
            Tok::Punct(')') => depth -= 1,
            Tok::Punct(',') if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// Rewrites one statement (or several) for PostgreSQL.
pub(super) fn to_pg(sql: &str) -> String {
    let toks = tokens(sql);
    let mut out = String::with_capacity(sql.len() + 16);
    let mut ignore_conflicts = false;
    emit(&toks, &mut out, &mut ignore_conflicts, false);
    if ignore_conflicts {
        add_on_conflict(&mut out);
    }
    out
}

/// Rewrites schema text (migrations) for PostgreSQL.
pub(super) fn schema_to_pg(sql: &str) -> String {
    let toks = tokens(sql);
    let mut out = String::with_capacity(sql.len() + 64);
    let mut ignore_conflicts = false;
    emit(&toks, &mut out, &mut ignore_conflicts, true);
    out
}

/// `ON CONFLICT DO NOTHING` goes before a `RETURNING`, or at the end.
fn add_on_conflict(out: &mut String) {
    let upper = out.to_ascii_uppercase();
    match upper.rfind(" RETURNING ") {
        Some(at) => out.insert_str(at, " ON CONFLICT DO NOTHING"),
        None => {
            let trimmed = out.trim_end().trim_end_matches(';').len();
            out.truncate(trimmed);
            out.push_str(" ON CONFLICT DO NOTHING");
        }
    }
}

fn emit(toks: &[Tok], out: &mut String, ignore_conflicts: &mut bool, schema: bool) {
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Param(n) => {
                out.push('$');
                out.push_str(&n.to_string());
            }
            Tok::Quoted(q) => out.push_str(q),
            Tok::Space(s) => out.push_str(s),
            Tok::Punct(c) => out.push(*c),
            Tok::Word(w) => {
                let upper = w.to_ascii_uppercase();
                let open = next_solid(toks, i + 1);
                let call = matches!(toks.get(open), Some(Tok::Punct('(')));
                match upper.as_str() {
                    "INSERT" if is_word(toks.get(next_solid(toks, i + 1)), "OR") => {
                        let or = next_solid(toks, i + 1);
                        let what = next_solid(toks, or + 1);
                        if is_word(toks.get(what), "IGNORE") {
                            *ignore_conflicts = true;
                            out.push_str("INSERT");
                            i = what + 1;
                            continue;
                        }
                        // INSERT OR REPLACE has no PostgreSQL form without its conflict target;
                        // left as it is, the server refuses it and a test shows where.
                        out.push_str(w);
                    }
                    "IFNULL" if call => out.push_str("COALESCE"),
                    "INSTR" if call => out.push_str("STRPOS"),
                    "LIKE" => out.push_str("ILIKE"),
                    "MAX" | "MIN" | "SUM" | "CAST" if call => {
                        let Some(close) = closing(toks, open) else {
                            out.push_str(w);
                            i += 1;
                            continue;
                        };
                        let inner = &toks[open + 1..close];
                        let mut body = String::new();
                        emit(inner, &mut body, ignore_conflicts, schema);
                        match upper.as_str() {
                            "MAX" if has_top_level_comma(inner) => out.push_str(&format!("GREATEST({body})")),
                            "MIN" if has_top_level_comma(inner) => out.push_str(&format!("LEAST({body})")),
                            "SUM" => out.push_str(&format!("CAST(SUM({body}) AS BIGINT)")),
                            "CAST" => {
                                let body = match body.to_ascii_uppercase().rfind(" AS INTEGER") {
                                    Some(at) => format!("{} AS BIGINT{}", &body[..at], &body[at + " AS INTEGER".len()..]),
                                    None => body,
                                };
                                out.push_str(&format!("CAST({body})"));
                            }
                            _ => out.push_str(&format!("{w}({body})")),
                        }
                        i = close + 1;
                        continue;
                    }
                    "INTEGER" if schema => {
                        let pk = next_solid(toks, i + 1);
                        let key = next_solid(toks, pk + 1);
                        if is_word(toks.get(pk), "PRIMARY") && is_word(toks.get(key), "KEY") {
                            out.push_str("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY");
                            let auto = next_solid(toks, key + 1);
                            i = if is_word(toks.get(auto), "AUTOINCREMENT") {
                                auto + 1
                            } else {
                                key + 1
                            };
                            continue;
                        }
                        out.push_str("BIGINT");
                    }
                    "CREATE" if schema && is_word(toks.get(next_solid(toks, i + 1)), "TABLE") => {
                        i = create_table(toks, i, out, ignore_conflicts);
                        continue;
                    }
                    "REAL" if schema => out.push_str("DOUBLE PRECISION"),
                    "BLOB" if schema => out.push_str("BYTEA"),
                    _ => out.push_str(w),
                }
            }
        }
        i += 1;
    }
}

/// A `CREATE TABLE` from `start`: its columns rewritten, SQLite's implicit `rowid` made a
/// column where the table has one (no `INTEGER PRIMARY KEY`, not `WITHOUT ROWID`), the
/// `WITHOUT ROWID` dropped. Returns the index after it.
fn create_table(toks: &[Tok], start: usize, out: &mut String, ignore_conflicts: &mut bool) -> usize {
    let Some(open) = toks[start..].iter().position(|t| *t == Tok::Punct('(')).map(|p| p + start) else {
        emit(&toks[start..], out, ignore_conflicts, true);
        return toks.len();
    };
    let Some(close) = closing(toks, open) else {
        emit(&toks[start..], out, ignore_conflicts, true);
        return toks.len();
    };
    let inner = &toks[open + 1..close];
    let int_pk = inner
        .windows(5)
        .any(|w| is_word(w.first(), "INTEGER") && is_word(w.get(2), "PRIMARY") && is_word(w.get(4), "KEY"));
    let without = next_solid(toks, close + 1);
    let without_rowid = is_word(toks.get(without), "WITHOUT") && is_word(toks.get(next_solid(toks, without + 1)), "ROWID");
    for t in &toks[start..open] {
        emit(std::slice::from_ref(t), out, ignore_conflicts, false);
    }
    out.push('(');
    emit(inner, out, ignore_conflicts, true);
    if !int_pk && !without_rowid {
        out.push_str(",\n    rowid BIGINT GENERATED BY DEFAULT AS IDENTITY\n");
    }
    out.push(')');
    if without_rowid {
        next_solid(toks, without + 1) + 1
    } else {
        close + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_functions_and_conflicts_are_rewritten_outside_literals() {
        assert_eq!(
            to_pg("SELECT IFNULL(SUM(n), 0) FROM t WHERE a = ?1 AND b LIKE ?2 AND c = '?3 IFNULL(' AND d = MAX(x, ?3)"),
            "SELECT COALESCE(CAST(SUM(n) AS BIGINT), 0) FROM t WHERE a = $1 AND b ILIKE $2 AND c = '?3 IFNULL(' AND d = GREATEST(x, $3)"
        );
        assert_eq!(to_pg("SELECT MAX(version) FROM v"), "SELECT MAX(version) FROM v");
        assert_eq!(
            to_pg("INSERT OR IGNORE INTO t (a) VALUES (?1)"),
            "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING"
        );
        assert_eq!(
            to_pg("INSERT OR IGNORE INTO t (a) VALUES (?1) RETURNING id"),
            "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id"
        );
        assert_eq!(to_pg("SELECT CAST(x / 2 AS INTEGER) FROM t"), "SELECT CAST(x / 2 AS BIGINT) FROM t");
        assert_eq!(to_pg("SELECT ? , ?"), "SELECT $1 , $2");
    }

    #[test]
    fn schema_types_become_postgres_types() {
        assert_eq!(
            schema_to_pg("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER NOT NULL, f REAL, b BLOB) -- note"),
            "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT NOT NULL, f DOUBLE PRECISION, b BYTEA) "
        );
        assert_eq!(
            schema_to_pg("CREATE TABLE p (a INTEGER, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;\nCREATE TABLE q (a INTEGER NOT NULL);"),
            "CREATE TABLE p (a BIGINT, b TEXT, PRIMARY KEY (a, b));\nCREATE TABLE q (a BIGINT NOT NULL,\n    rowid BIGINT GENERATED BY DEFAULT AS IDENTITY\n);"
        );
    }
}
