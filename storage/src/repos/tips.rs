//! Game tips and loading tips (`tips.rs` of the crate root has the trait).

use crate::sql::{params, OptionalExt};

use super::Db;
use crate::tips::{GameTip, TipRepo};
use crate::Result;

/// Migration (the start sequence, core-platform.md §4.4 steps 9 and 10): how each game starts
/// (`seed::game_start` gives the seeded games the same: 14 external, 16 only together, 18 not
/// together), a game's start tip (seeded for 灯塔之夜, id 13, with the queue-dialog ad) and the
/// play page's loading tips. A tip names its game without a foreign key: on an empty database
/// the migrations run before the catalogue is seeded.
pub(crate) const MIGRATION: &str = "
ALTER TABLE games ADD COLUMN start_mode      INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN support_modes   TEXT    NOT NULL DEFAULT '2,4';
ALTER TABLE games ADD COLUMN associated_type INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN start_url       TEXT    NOT NULL DEFAULT '';
UPDATE games SET associated_type = 2, start_url = 'https://h5.example.com/zhulin/' WHERE id = 14;
UPDATE games SET start_mode = 2, support_modes = '2' WHERE id = 16;
UPDATE games SET support_modes = '' WHERE id = 18;

CREATE TABLE game_tips (
    game_id    INTEGER PRIMARY KEY,
    tip        TEXT    NOT NULL CHECK (tip <> ''),
    ad_id      INTEGER REFERENCES ads (id),
    updated_at INTEGER NOT NULL
);

CREATE TABLE loading_tips (
    position INTEGER PRIMARY KEY,
    tip      TEXT    NOT NULL
);

INSERT INTO game_tips (game_id, tip, ad_id, updated_at) VALUES
    (13, '本游戏存档保存在云端，每次游戏结束后自动同步；夜间场景较暗，建议调高屏幕亮度。',
     (SELECT id FROM ads WHERE slot = 'gift_game_dialog' ORDER BY id LIMIT 1), 0);

INSERT INTO loading_tips (position, tip) VALUES
    (1, '游戏画面加载中，首次启动可能需要十几秒，请耐心等待'),
    (2, '按 F11 可以全屏游戏，获得更沉浸的体验'),
    (3, '网络延迟较高时，可以在启动时选择延迟更低的区服'),
    (4, '游戏结束后时长停止计算，记得退出游戏哦'),
    (5, '开通会员可享专属排队通道，更快进入游戏');
";

pub(crate) struct SqlTips {
    db: Db,
}

impl SqlTips {
    pub(crate) fn new(db: Db) -> SqlTips {
        SqlTips { db }
    }
}

impl TipRepo for SqlTips {
    fn game_tip(&self, game_id: i64) -> Result<Option<GameTip>> {
        self.db
            .lock()?
            .prepare_cached("SELECT game_id, tip, ad_id, updated_at FROM game_tips WHERE game_id = ?1")?
            .query_row([game_id], |r| {
                Ok(GameTip {
                    game_id: r.get(0)?,
                    tip: r.get(1)?,
                    ad_id: r.get(2)?,
                    updated_at: r.get(3)?,
                })
            })
            .optional()
    }

    fn set_game_tip(&self, tip: &GameTip) -> Result<()> {
        self.db.write(|tx| {
            if tip.tip.is_empty() {
                tx.execute("DELETE FROM game_tips WHERE game_id = ?1", [tip.game_id])?;
            } else {
                tx.execute(
                    "INSERT INTO game_tips (game_id, tip, ad_id, updated_at) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (game_id) DO UPDATE SET tip = ?2, ad_id = ?3, updated_at = ?4",
                    params![tip.game_id, tip.tip, tip.ad_id, tip.updated_at],
                )?;
            }
            Ok(())
        })
    }

    fn loading_tips(&self) -> Result<Vec<String>> {
        let conn = self.db.lock()?;
        let mut stmt = conn.prepare_cached("SELECT tip FROM loading_tips ORDER BY position")?;
        let tips = stmt.query_map((), |r| r.get(0))?.collect::<Result<_>>()?;
        Ok(tips)
    }

    fn set_loading_tips(&self, tips: &[String]) -> Result<()> {
        self.db.write(|tx| {
            tx.execute("DELETE FROM loading_tips", ())?;
            for (i, tip) in tips.iter().enumerate() {
                tx.execute(
                    "INSERT INTO loading_tips (position, tip) VALUES (?1, ?2)",
                    params![i as i64 + 1, tip],
                )?;
            }
            Ok(())
        })
    }
}
