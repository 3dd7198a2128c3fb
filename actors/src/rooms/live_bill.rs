//! The bills' live record (`/user/bill/liveRecord`, commerce.md §2.1): the rooms the caller
//! hosted, from the rooms' own data: when, which game, the audience, the gifts and gold the room
//! received, and the play minutes charged to the room's relay session.

use crate::error::DomainResult;
use crate::rooms::service::Rooms;

/// One hosted room as the live record lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveRecord {
    pub dd_rid: i64,
    pub room_serial: i64,
    pub name: String,
    pub game_id: i64,
    pub game_name: String,
    pub created_at: i64,
    pub ended_at: Option<i64>,
    pub audience_count: i64,
    pub gift_count: i64,
    /// Gold the room received.
    pub gold: i64,
    /// Play minutes charged to the host for the room's relay session.
    pub play_minutes: i64,
}

impl Rooms {
    /// A page (1-based) of the caller's hosted rooms, newest first, and how many there are.
    pub async fn live_records(&self, uid: i64, page: u32, page_size: u32) -> DomainResult<(Vec<LiveRecord>, u64)> {
        let offset = u64::from(page.max(1) - 1) * u64::from(page_size);
        self.ctx
            .db(move |s| {
                let (rooms, total) = s.rooms.hosted(uid, offset, page_size)?;
                let mut out = Vec::with_capacity(rooms.len());
                for (r, play_minutes) in rooms {
                    let game_name = s.games.get(r.game_id)?.map(|g| g.name).unwrap_or_default();
                    out.push(LiveRecord {
                        dd_rid: r.dd_rid,
                        room_serial: r.room_serial,
                        name: r.name,
                        game_id: r.game_id,
                        game_name,
                        created_at: r.created_at,
                        ended_at: r.ended_at,
                        audience_count: r.audience_count,
                        gift_count: r.gift_count,
                        gold: r.gold,
                        play_minutes,
                    });
                }
                Ok((out, total))
            })
            .await
    }
}
