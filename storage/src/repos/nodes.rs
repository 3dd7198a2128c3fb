use crate::sql::{params, OptionalExt, Row};

use super::Db;
use crate::model::Node;
use crate::repo::NodeRepo;
use crate::Result;

pub(crate) struct SqlNodes {
    db: Db,
}

impl SqlNodes {
    pub(crate) fn new(db: Db) -> SqlNodes {
        SqlNodes { db }
    }
}

fn from_row(row: &Row) -> Result<Node> {
    Ok(Node {
        id: row.get(0)?,
        name: row.get(1)?,
        status: row.get(2)?,
    })
}

impl NodeRepo for SqlNodes {
    fn list(&self) -> Result<Vec<Node>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached("SELECT id, name, status FROM nodes ORDER BY id")?;
        let nodes = stmt.query_map((), from_row)?.collect::<Result<_>>()?;
        Ok(nodes)
    }

    fn get(&self, id: i64) -> Result<Option<Node>> {
        self.db
            .lock()?
            .query_row("SELECT id, name, status FROM nodes WHERE id = ?1", [id], from_row)
            .optional()
    }

    fn upsert(&self, node: &Node) -> Result<()> {
        self.db.lock()?.execute(
            "INSERT INTO nodes (id, name, status) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status",
            params![node.id, node.name, node.status],
        )?;
        Ok(())
    }
}
