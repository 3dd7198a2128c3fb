//! What an empty database starts with: an invented catalogue of games (no real titles) covering
//! every listing case the interface shows, and the server nodes.
//!
//! Ids 1..=5 are ordinary on-shelf games (tests start them); the rest cover, in order: the
//! instant-play and member-only games, coming soon, off the shelf (by status and by
//! `available`), not supported on this client, and one deleted game.
//!
//! The shop (`shop`): goods for every section of commerce.md §7, prices in fen.

use crate::model::{Game, GameStart, Goods, GoodsGrant, Node};

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
        start: GameStart::default(),
    }
}

/// The seeded games that start differently (core-platform.md §4.4 step 10), by id: 14 is an
/// external game opened at its address, 16 is played only together (a RELAY room), 18 is not
/// played together. The start-sequence migration gives existing catalogues the same.
pub fn game_start(id: i64) -> GameStart {
    match id {
        14 => GameStart {
            associated_type: 2,
            start_url: EXTERNAL_GAME_URL.to_owned(),
            ..GameStart::default()
        },
        16 => GameStart {
            start_mode: 2,
            support_modes: vec![2],
            ..GameStart::default()
        },
        18 => GameStart {
            support_modes: vec![],
            ..GameStart::default()
        },
        _ => GameStart::default(),
    }
}

/// Where the seeded external game (14) is played.
pub const EXTERNAL_GAME_URL: &str = "https://h5.example.com/zhulin/";

/// The host game a seeded entry launches: the invented titles are played with the games the
/// hosts run, in rotation by id (1 neverball, 2 supertux, 3 ltris, 4 the test pattern, 5
/// neverball...). Migration 4 gives existing catalogues the same mapping.
pub fn host_game(id: i64) -> &'static str {
    HOST_GAMES[(id.rem_euclid(4)) as usize]
}

/// By `id % 4`.
const HOST_GAMES: [&str; 4] = ["pattern", "neverball", "supertux", "ltris"];

/// The seeded catalogue: 28 games with distinct ids and hues.
pub fn catalogue() -> Vec<Game> {
    let mut games = listed();
    for g in &mut games {
        g.start = game_start(g.id);
    }
    games
}

#[rustfmt::skip] // one game per line reads as a table
fn listed() -> Vec<Game> {
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

/// Every section key of the shop (commerce.md §7), in the order the seed lists them.
pub const SECTIONS: [&str; 13] = [
    "shop_card_time",
    "shop_card_queue",
    "shop_queue_accelerate",
    "shop_card_coin",
    "shop_card_yoodo",
    "shop_time_useup_yoodo",
    "shop_time_hangup_yoodo",
    "shop_vvip",
    "shop_vip",
    "vip2vvip",
    "shop_card_day",
    "shop_card_night",
    "queue_detainment_goods",
];

/// One goods of the seed: on sale, no member, crossed or first price, no duration options.
#[allow(clippy::too_many_arguments)] // the seed's rows read as a table, one argument a column
fn goods(id: i64, code: &str, goods_type: i32, title: &str, face: &str, retail: i64, grant: GoodsGrant, intro: &str) -> Goods {
    Goods {
        id,
        code: code.to_owned(),
        goods_type,
        title: title.to_owned(),
        name: title.to_owned(),
        image: String::new(),
        label: String::new(),
        description: String::new(),
        introduction: intro.to_owned(),
        give_goods_name: String::new(),
        face_value_txt: face.to_owned(),
        face_value: 0,
        retail_price: retail,
        member_price: 0,
        crossed_price: 0,
        cycleable: false,
        first_price: 0,
        grant,
        parent_id: None,
        on_sale: true,
        sort_order: i32::try_from(id % 100).unwrap_or(0),
    }
}

fn minutes(minutes: i64) -> GoodsGrant {
    GoodsGrant::PlayTime { minutes }
}
/// The vip → vvip upgrade's goods (commerce.md §2.4: fetched by this code with good_id 0).
pub const UPGRADE_CODE: &str = "vip2vvip";
/// fen a day of the upgrade: the 1-month vvip's price less the vip's, over its 31 days (rounded up).
pub const UPGRADE_DAY_PRICE: i64 = (4500 - 2500 + 30) / 31;

fn upgrade_day() -> GoodsGrant {
    GoodsGrant::Upgrade {
        from: "vip".to_owned(),
        to: "vvip".to_owned(),
        days: 1,
    }
}

fn days(kind: &str, days: i64) -> GoodsGrant {
    GoodsGrant::Entitlement {
        kind: kind.to_owned(),
        days,
    }
}

/// A membership with its 1, 3 and 12 month options (ids `id + 1..=3`), priced per option.
fn membership(
    id: i64,
    code: &str,
    goods_type: i32,
    title: &str,
    kind: &str,
    options: [(i64, i64, i64, i64); 3],
    intro: &str,
) -> Vec<Goods> {
    let [(m, retail, member, crossed), ..] = options;
    let mut top = goods(id, code, goods_type, title, &format!("{m}个月"), retail, days(kind, 31 * m), intro);
    top.crossed_price = crossed;
    top.member_price = member;
    top.label = r#"{"title":"热销","effect":"hot"}"#.to_owned();
    top.give_goods_name = "会员月度速进卡".to_owned();
    let mut all = vec![top];
    for (i, (months, retail, member, crossed)) in options.into_iter().enumerate() {
        let n = i64::try_from(i).unwrap_or(0) + 1;
        let mut g = goods(
            id + n,
            &format!("{code}_{months}m"),
            goods_type,
            &format!("{title}·{months}个月"),
            &format!("{months}个月"),
            retail,
            days(kind, 31 * months),
            intro,
        );
        g.face_value = months;
        g.member_price = member;
        g.crossed_price = crossed;
        g.parent_id = Some(id);
        all.push(g);
    }
    all
}

/// The seeded shop: the goods (duration options after their parent) and each section's goods
/// (section key, goods id, sort). Prices are fen; 1 云游币 pays 1 fen.
#[rustfmt::skip] // one goods per line reads as a table
pub fn shop() -> (Vec<Goods>, Vec<(String, i64, i32)>) {
    let time_intro = "购买后立即到账\n全部游戏通用\n付费时长永久有效";
    let mut all = vec![
        // Play time (TIME 2).
        goods(101, "time_300", 2, "畅玩时长5小时", "5小时", 600, minutes(300), time_intro),
        Goods { member_price: 900, crossed_price: 1200, ..goods(102, "time_600", 2, "畅玩时长10小时", "10小时", 1000, minutes(600), time_intro) },
        Goods { member_price: 2500, crossed_price: 3600, ..goods(103, "time_1800", 2, "畅玩时长30小时", "30小时", 2800, minutes(1800), time_intro) },
        Goods { member_price: 7900, crossed_price: 12000, ..goods(104, "time_6000", 2, "畅玩时长100小时", "100小时", 8800, minutes(6000), time_intro) },
        // Fast-entry time (QUEUE 3).
        goods(111, "queue_1d", 3, "速进时长1天", "1天", 300, days("fast_enter", 1), "有效期内排队自动进入速进通道"),
        Goods { crossed_price: 2100, ..goods(112, "queue_7d", 3, "速进时长7天", "7天", 1500, days("fast_enter", 7), "有效期内排队自动进入速进通道") },
        Goods { crossed_price: 9000, ..goods(113, "queue_30d", 3, "速进时长30天", "30天", 4900, days("fast_enter", 30), "有效期内排队自动进入速进通道") },
        // Queue acceleration: a fast-entry card used at once, or a day of fast entry.
        goods(121, "accelerate_card", 3, "排队加速卡", "1张", 200, GoodsGrant::Cards { count: 1 }, "排队中购买后可立即使用，进入速进通道"),
        goods(122, "accelerate_1d", 3, "速进时长1天", "1天", 300, days("fast_enter", 1), "立即进入速进通道，24小时内排队均可加速"),
        // Coins (VIRTURAL_SKU 19).
        goods(131, "coin_600", 19, "600云游币", "600云游币", 600, GoodsGrant::Coins { amount: 600 }, "可用于兑换时长、会员等商品"),
        goods(132, "coin_3000", 19, "3000云游币", "3000云游币", 3000, GoodsGrant::Coins { amount: 3000 }, "可用于兑换时长、会员等商品"),
        goods(133, "coin_9800", 19, "9800云游币", "9800云游币", 9800, GoodsGrant::Coins { amount: 9800 }, "可用于兑换时长、会员等商品"),
        goods(134, "coin_19800", 19, "19800云游币", "19800云游币", 19800, GoodsGrant::Coins { amount: 19800 }, "可用于兑换时长、会员等商品"),
        // Yoodo (YOODO 12).
        goods(141, "yoodo_100", 12, "100悠豆", "100悠豆", 1000, GoodsGrant::Yoodo { amount: 100 }, "悠豆可用于挂机与时长用尽后继续游戏"),
        goods(142, "yoodo_500", 12, "500悠豆", "500悠豆", 5000, GoodsGrant::Yoodo { amount: 500 }, "悠豆可用于挂机与时长用尽后继续游戏"),
        goods(143, "yoodo_1000", 12, "1000悠豆", "1000悠豆", 10000, GoodsGrant::Yoodo { amount: 1000 }, "悠豆可用于挂机与时长用尽后继续游戏"),
        // Play time when it ran out, and yoodo for hang-up.
        goods(151, "useup_60", 2, "续玩时长1小时", "1小时", 200, minutes(60), "时长用尽时购买，立即继续游戏"),
        goods(152, "useup_180", 2, "续玩时长3小时", "3小时", 500, minutes(180), "时长用尽时购买，立即继续游戏"),
        goods(161, "hangup_50", 12, "挂机悠豆50", "50悠豆", 500, GoodsGrant::Yoodo { amount: 50 }, "挂机模式消耗悠豆"),
        goods(162, "hangup_200", 12, "挂机悠豆200", "200悠豆", 2000, GoodsGrant::Yoodo { amount: 200 }, "挂机模式消耗悠豆"),
        // The upgrade (VIP_UPGRADE 21).
        // One day of the vip left turned into vvip; bought as many times as days are left.
        goods(201, UPGRADE_CODE, 21, "VIP升级VVIP", "1天", UPGRADE_DAY_PRICE, upgrade_day(), "补差价将剩余VIP天数升级为VVIP会员"),
        // Packages (DAILY_PACKAGE 27, NIGHT_PACKAGE 22).
        Goods { face_value: 1, member_price: 500, ..goods(211, "daily_1d", 27, "日卡畅玩1天", "1天", 600, days("daily", 1), "每日08:00-24:00不限时长畅玩") },
        Goods { face_value: 7, crossed_price: 4200, ..goods(212, "daily_7d", 27, "日卡畅玩7天", "7天", 3000, days("daily", 7), "每日08:00-24:00不限时长畅玩") },
        Goods { face_value: 1, ..goods(221, "night_1d", 22, "夜卡畅玩1天", "1天", 500, days("night", 1), "每晚23:00-次日07:00不限时长畅玩") },
        Goods { face_value: 7, crossed_price: 3500, ..goods(222, "night_7d", 22, "夜卡畅玩7天", "7天", 2500, days("night", 7), "每晚23:00-次日07:00不限时长畅玩") },
        // Retention offer while queued.
        Goods { crossed_price: 300, ..goods(231, "detain_card", 3, "限时加速卡", "1张", 190, GoodsGrant::Cards { count: 1 }, "限时优惠，购买后立即加速") },
    ];
    all.extend(membership(301, "vvip", 5, "VVIP会员", "vvip", [(1, 4500, 0, 5000), (3, 12800, 0, 15000), (12, 46800, 0, 60000)],
        "每日2小时游戏时长\n每月20小时额外时长\n每月5张速进卡\nVVIP专属排队通道"));
    all.extend(membership(311, "vip", 4, "VIP会员", "vip", [(1, 2500, 0, 3000), (3, 6800, 0, 9000), (12, 25800, 0, 36000)],
        "每日1小时游戏时长\n每月3张速进卡\n会员排队通道"));
    let mut renew_vvip = goods(321, "vvip_renew", 15, "VVIP连续包月", "1个月", 4500, days("vvip", 31), "首月特惠，到期自动续费，可随时取消");
    renew_vvip.cycleable = true;
    renew_vvip.first_price = 3000;
    let mut renew_vip = goods(322, "vip_renew", 14, "VIP连续包月", "1个月", 2500, days("vip", 31), "首月特惠，到期自动续费，可随时取消");
    renew_vip.cycleable = true;
    renew_vip.first_price = 1500;
    all.extend([renew_vvip, renew_vip]);
    all.extend(game_packages());

    let sections: &[(&str, &[i64])] = &[
        ("shop_card_time", &[101, 102, 103, 104]),
        ("shop_card_queue", &[111, 112, 113]),
        ("shop_queue_accelerate", &[121, 122, 301, 311]),
        ("shop_card_coin", &[131, 132, 133, 134]),
        ("shop_card_yoodo", &[141, 142, 143]),
        ("shop_time_useup_yoodo", &[151, 152]),
        ("shop_time_hangup_yoodo", &[161, 162]),
        ("shop_vvip", &[321, 301]),
        ("shop_vip", &[322, 311]),
        ("vip2vvip", &[201]),
        ("shop_card_day", &[211, 212]),
        ("shop_card_night", &[221, 222]),
        ("queue_detainment_goods", &[231, 122]),
        ("game_package_19", &[401]),
    ];
    let sections = sections
        .iter()
        .flat_map(|(key, ids)| ids.iter().enumerate().map(|(i, id)| ((*key).to_owned(), *id, i32::try_from(i).unwrap_or(0))))
        .collect();
    (all, sections)
}

/// The game subscription packages (GAME_PACKAGE 9, commerce.md §2.6): one per subscription
/// game of the default configuration (19), listed in section `game_package_{game}`, with its
/// 1, 3 and 12 month options (ids `401 + 1..=3`, `face_value` in months) each granting
/// `sub:{game}` for 31 days a month.
fn game_packages() -> Vec<Goods> {
    let (id, game, title) = (401, 19, "沙海商队订阅包");
    let intro = "订阅期内畅玩包内游戏\n到期后需续订";
    let kind = format!("sub:{game}");
    let mut top = goods(id, &format!("sub_{game}"), 9, title, "1个月", 1800, days(&kind, 31), intro);
    top.crossed_price = 2000;
    let mut all = vec![top];
    for (n, (months, retail, crossed)) in [(1, 1800, 2000), (3, 4800, 6000), (12, 16800, 24000)].into_iter().enumerate() {
        let n = i64::try_from(n).unwrap_or(0) + 1;
        let mut g = goods(
            id + n,
            &format!("sub_{game}_{months}m"),
            9,
            &format!("{title}·{months}个月"),
            &format!("{months}个月"),
            retail,
            days(&kind, 31 * months),
            intro,
        );
        g.face_value = months;
        g.crossed_price = crossed;
        g.parent_id = Some(id);
        all.push(g);
    }
    all
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

    /// Every section has goods; codes and ids are unique; prices are positive fen; duration
    /// options point at a parent in the list.
    #[test]
    fn the_shop_fills_every_section() {
        let (goods, sections) = shop();
        for key in SECTIONS {
            assert!(sections.iter().any(|(k, _, _)| k == key), "{key} has goods");
        }
        assert_eq!(goods.iter().map(|g| g.id).collect::<HashSet<_>>().len(), goods.len());
        assert_eq!(goods.iter().map(|g| &g.code).collect::<HashSet<_>>().len(), goods.len());
        assert!(goods.iter().all(|g| g.retail_price > 0 && g.grant.to_parts().1 > 0));
        for g in &goods {
            if let Some(p) = g.parent_id {
                assert!(goods.iter().any(|x| x.id == p && x.parent_id.is_none()));
            }
        }
        assert!(sections
            .iter()
            .all(|(_, id, _)| goods.iter().any(|g| g.id == *id && g.parent_id.is_none())));
    }

    /// Node ids are unique and at least one node is selectable.
    #[test]
    fn nodes_are_selectable() {
        let nodes = nodes();
        assert_eq!(nodes.iter().map(|n| n.id).collect::<HashSet<_>>().len(), nodes.len());
        assert!(nodes.iter().any(|n| n.status == 1));
    }
}
