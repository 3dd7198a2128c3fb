//! What an empty database starts with: an invented catalogue of games (no real titles) covering
//! every listing case the interface shows, and the server nodes.
//!
//! Ids 1..=5 are ordinary on-shelf games (tests start them); the rest cover, in order: the
//! instant-play and member-only games, coming soon, off the shelf (by status and by
//! `available`), not supported on this client, and one deleted game.

use crate::model::{Game, Node};

/// An ordinary on-shelf game with Chinese text and no membership or controller needs.
fn game(id: i64, name: &str, platform: &str, hue: i32, sort_order: i32, description: &str) -> Game {
    Game {
        id,
        name: name.to_owned(),
        description: description.to_owned(),
        status: 1,
        available: true,
        deleted: false,
        member_type: None,
        platform: platform.to_owned(),
        chinese: true,
        controller: false,
        instant_play: false,
        hue,
        sort_order,
        host_game: host_game(id).to_owned(),
    }
}

/// The host game a seeded entry launches: the invented titles are played with the games the
/// hosts run, in rotation by id (1 neverball, 2 supertux, 3 ltris, 4 the test pattern, 5
/// neverball...). Migration 4 gives existing catalogues the same mapping.
pub fn host_game(id: i64) -> &'static str {
    HOST_GAMES[(id.rem_euclid(4)) as usize]
}

/// By `id % 4`.
const HOST_GAMES: [&str; 4] = ["pattern", "neverball", "supertux", "ltris"];

/// The seeded catalogue: 28 games with distinct ids and hues.
#[rustfmt::skip] // one game per line reads as a table
pub fn catalogue() -> Vec<Game> {
    let member = |tier: &str| Some(tier.to_owned());
    vec![
        game(1, "星海远征", "steam", 210, 10, "率领舰队穿越未知星域，在群星之间建立属于你的远征帝国。"),
        game(2, "龙脊山脉", "steam", 30, 20, "攀越终年积雪的龙脊山脉，在巨龙沉睡之地揭开古老王国的秘密。"),
        game(3, "赛博霓虹", "epic", 300, 30, "在霓虹闪烁的未来都市里当一名赏金猎人，用义体与黑客技术完成委托。"),
        game(4, "荒原求生", "steam", 45, 40, "在资源匮乏的荒原上搜集物资、搭建营地，与风暴和野兽抗争求生。"),
        Game { controller: true,
            ..game(5, "机甲纪元", "wegame", 0, 50, "驾驶自定义机甲投入多人对战，改装武器与装甲打造最强战机。") },
        Game { controller: true, instant_play: true,
            ..game(6, "云端赛车", "uplay", 190, 60, "在漂浮于云层之上的赛道上极速飞驰，挑战全球玩家的圈速纪录。") },
        game(7, "蒸汽纪元", "steam", 15, 70, "在蒸汽与齿轮驱动的城市中经营工厂，带领市民度过工业革命的浪潮。"),
        game(8, "星海牧歌", "origin", 150, 80, "在遥远的小行星上开垦农场、饲养太空牲畜，过上悠闲的星际田园生活。"),
        game(9, "深海回响", "battlenet", 240, 90, "潜入幽暗的深海遗迹，追寻神秘声波背后失落文明的真相。"),
        Game { chinese: false, controller: true,
            ..game(10, "极光车手 Aurora", "epic", 170, 100, "驾驶电动跑车穿越极地公路，在漫天极光下完成一场场拉力赛。") },
        game(11, "古城迷踪", "wegame", 60, 110, "在千年古城的街巷中破解机关谜题，寻找失踪考古队的下落。"),
        Game { controller: true,
            ..game(12, "铁翼长空", "steam", 200, 120, "驾驶战机翱翔长空，在激烈的空中缠斗中夺取制空权。") },
        game(13, "灯塔之夜", "steam", 260, 130, "独自看守孤岛灯塔的七个夜晚，每一夜都藏着不同的秘密。"),
        game(14, "竹林剑影", "wegame", 120, 140, "习得百家剑法行走江湖，在竹林深处与宿敌决一胜负。"),
        Game { instant_play: true,
            ..game(15, "方块农场", "steam", 90, 150, "用方块搭建属于自己的农场小镇，和朋友一起种田、养殖、建设家园。") },
        Game { controller: true,
            ..game(16, "雷鸣小队", "uplay", 350, 160, "指挥精英小队执行战术任务，在瞬息万变的战场上协同作战。") },
        Game { instant_play: true,
            ..game(17, "幻境棋局", "battlenet", 280, 170, "收集奇幻卡牌组建阵容，在回合制棋局中智取对手。") },
        game(18, "月光旅店", "origin", 230, 180, "经营一家只在月夜营业的旅店，招待形形色色的奇特旅客。"),
        game(19, "沙海商队", "steam", 38, 190, "带领驼队穿越茫茫沙海，在绿洲城邦之间往来贸易、积累财富。"),
        // 20 and 21 share a sort_order: the listing breaks the tie by id.
        Game { member_type: member("vip"), controller: true,
            ..game(20, "冰原猎人", "epic", 180, 200, "在冰封的极北之地追踪巨兽，打造装备挑战更强大的猎物。") },
        Game { member_type: member("vvip"),
            ..game(21, "像素迷窟", "steam", 320, 200, "在每次都不同的像素迷窟中探险，收集遗物、击败首领，倒下后从头再来。") },
        Game { status: 0, available: false,
            ..game(22, "浮岛建造师", "steam", 75, 210, "在漂浮的空岛上规划城市，让居民在云海之间安居乐业。") },
        Game { status: 0, available: false,
            ..game(23, "时间信差", "epic", 105, 220, "作为穿梭于不同年代的信差，把每一封信准时送到收件人手中。") },
        Game { status: 2, available: false,
            ..game(24, "远古部落", "wegame", 135, 230, "带领原始部落狩猎采集、驯化野兽，在远古大陆上繁衍壮大。") },
        Game { available: false,
            ..game(25, "霜火传说", "steam", 160, 240, "在冰与火交织的大陆上踏上冒险之旅，唤醒沉睡的元素之力。") },
        Game { status: 10,
            ..game(26, "掌上菜园", "mobile", 100, 250, "随时随地打理你的掌上菜园，收获作物、装扮小屋。") },
        Game { status: 10,
            ..game(27, "指尖拼图", "mobile", 330, 260, "用指尖拼合上千幅手绘插画，在轻松的节奏中放松心情。") },
        Game { available: false, deleted: true,
            ..game(28, "星海远征（旧版）", "steam", 215, 270, "星海远征的早期版本，已由新版取代。") },
    ]
}

/// The seeded server nodes; the last is under maintenance.
pub fn nodes() -> Vec<Node> {
    let node = |id: i64, name: &str, status: i32| Node {
        id,
        name: name.to_owned(),
        status,
    };
    vec![
        node(1, "华东一区", 1),
        node(2, "华南一区", 1),
        node(3, "华北一区", 1),
        node(4, "西南一区", 0),
    ]
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// The catalogue covers every listing case the brief asks for, with unique ids and hues.
    #[test]
    fn catalogue_covers_every_listing_case() {
        let games = catalogue();
        let count = |pred: &dyn Fn(&Game) -> bool| games.iter().filter(|g| pred(g)).count();
        let on_shelf = |g: &Game| g.status == 1 && g.available && !g.deleted;

        assert!(games.len() >= 28);
        assert_eq!(games.iter().map(|g| g.id).collect::<HashSet<_>>().len(), games.len(), "ids");
        assert_eq!(games.iter().map(|g| g.hue).collect::<HashSet<_>>().len(), games.len(), "hues");
        assert!(games.iter().all(|g| (0..360).contains(&g.hue)));
        assert!((18..=22).contains(&count(&on_shelf)));
        assert!(count(&|g| g.status == 0 && !g.deleted) >= 2);
        assert_eq!(count(&|g| g.status == 2 && !g.deleted), 1);
        assert_eq!(count(&|g| g.status == 1 && !g.available && !g.deleted), 1);
        assert_eq!(count(&|g| g.status == 10), 2);
        assert_eq!(count(&|g| g.deleted), 1);
        assert_eq!(count(&|g| g.member_type.as_deref() == Some("vip")), 1);
        assert_eq!(count(&|g| g.member_type.as_deref() == Some("vvip")), 1);
        assert_eq!(count(&|g| g.instant_play), 3);
        assert!(games.iter().map(|g| g.platform.as_str()).collect::<HashSet<_>>().len() >= 6);
        assert!(games.iter().all(|g| !g.name.is_empty() && g.description.ends_with('。')));
        for g in &games {
            assert_eq!(g.host_game, host_game(g.id));
        }
        assert_eq!(
            (1..=4).map(host_game).collect::<Vec<_>>(),
            ["neverball", "supertux", "ltris", "pattern"],
            "every host game is reachable from games 1..=4"
        );
        for id in 1..=5 {
            let g = games.iter().find(|g| g.id == id).expect("ids 1..=5 exist");
            assert!(on_shelf(g) && g.member_type.is_none() && !g.instant_play, "game {id} is ordinary");
        }
    }

    /// Node ids are unique and at least one node is selectable.
    #[test]
    fn nodes_are_selectable() {
        let nodes = nodes();
        assert_eq!(nodes.iter().map(|n| n.id).collect::<HashSet<_>>().len(), nodes.len());
        assert!(nodes.iter().any(|n| n.status == 1));
    }
}
