#!/usr/bin/env python3
"""Writes the Grafana dashboards (ops/grafana/dashboards/*.json) from the panel tables below.

The JSON files are checked in (Grafana provisions them as they are); `make test` runs
`ops/grafana/build.py --check`, which fails when a file differs from what this script writes,
and ops/prometheus/check_queries.py checks every query against the series the platform exports.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATASOURCE = {"type": "prometheus", "uid": "yoo-prometheus"}

# (title, [(legend, expr)], unit, kind) per panel; kind: timeseries or stat.
DASHBOARDS = {
    "overview": ("云游平台总览", [
        ("排队人数（按节点）", [("节点 {{node}}", "node:yoo_players_waiting:sum")], "short", "timeseries"),
        ("放行/秒（按节点）", [("节点 {{node}}", "node:yoo_queue_admissions:rate1m")], "ops", "timeseries"),
        ("排名刷新间隔 p99", [("p99", "yoo:rank_staleness_seconds:p99_5m")], "s", "stat"),
        ("交接 p99（按节点）", [("节点 {{node}}", "node:yoo_handoff_seconds:p99_5m")], "s", "timeseries"),
        ("会话（按状态）", [("{{state}}", "state:yoo_sessions:sum")], "short", "timeseries"),
        ("空闲机器", [("节点 {{node}}", "node:yoo_machines_free:sum")], "short", "timeseries"),
        ("直播间观众", [("观众", "yoo:room_viewers:sum")], "short", "stat"),
        ("HTTP 5xx 比例", [("5xx", "yoo:http_5xx:ratio_rate5m")], "percentunit", "stat"),
        ("正在触发的告警", [("{{alertname}}", 'ALERTS{alertstate="firing"}')], "short", "stat"),
    ]),
    "queue": ("排队", [
        ("排队人数（按节点、通道）", [("{{node}} {{lane}}", "node_lane:yoo_players_waiting:sum")], "short", "timeseries"),
        ("放行/秒（按节点、通道）", [("{{node}} {{lane}}", "node_lane:yoo_queue_admissions:rate1m")], "ops", "timeseries"),
        ("排名刷新间隔 p99", [("p99", "yoo:rank_staleness_seconds:p99_5m")], "s", "timeseries"),
        ("排名推送/秒", [("推送", "sum(rate(yoo_rank_pushes_total[1m]))")], "ops", "timeseries"),
        ("排名刷新耗时", [("{{quantile}}", "yoo_rank_refresh_seconds")], "s", "timeseries"),
        ("交接 p99（按节点）", [("节点 {{node}}", "node:yoo_handoff_seconds:p99_5m")], "s", "timeseries"),
    ]),
    "sessions": ("会话与机器", [
        ("会话（按状态）", [("{{state}}", "state:yoo_sessions:sum")], "short", "timeseries"),
        ("开始/秒", [("开始", "sum(rate(yoo_sessions_started_total[1m]))")], "ops", "timeseries"),
        ("结束/秒（按原因）", [("{{reason}}", "reason:yoo_sessions_ended:rate5m")], "ops", "timeseries"),
        ("空闲机器（按节点）", [("节点 {{node}}", "node:yoo_machines_free:sum")], "short", "timeseries"),
        ("五分钟内失去的机器", [("节点 {{node}}", "node:yoo_machines_lost:increase5m")], "short", "timeseries"),
        ("游戏主机连接", [("主机", "sum(yoo_host_links_open)")], "short", "stat"),
        ("主机槽位（按阶段）", [("{{instance}} {{phase}}", "instance_phase:yoo_gamehost_slots:sum")], "short", "timeseries"),
        ("编码帧/秒", [("{{instance}}", "instance:yoo_gamehost_frames_encoded:rate1m")], "ops", "timeseries"),
        ("丢帧/秒", [("{{instance}}", "instance:yoo_gamehost_frames_dropped:rate1m")], "ops", "timeseries"),
        ("编码 p99", [("{{instance}}", "instance:yoo_gamehost_encode_seconds:p99_5m")], "s", "timeseries"),
        ("串流观看者", [("{{instance}}", "instance:yoo_gamehost_viewers:sum")], "short", "timeseries"),
        ("Actor 存活（按类型）", [("{{kind}}", "sum by (kind) (yoo_actors_alive)")], "short", "timeseries"),
        ("Actor 重启（10 分钟）", [("{{kind}}", "kind:yoo_actor_restarts:increase10m")], "short", "timeseries"),
    ]),
    "rooms": ("一起玩直播间", [
        ("开播房间", [("房间", "sum(yoo_rooms_open)")], "short", "timeseries"),
        ("观众", [("观众", "yoo:room_viewers:sum")], "short", "timeseries"),
        ("事件送达/秒", [("送达", "yoo:room_deliveries:rate1m")], "ops", "timeseries"),
        ("写出帧/秒", [("帧", "sum(rate(yoo_room_frames_total[1m]))")], "ops", "timeseries"),
        ("WebSocket", [("打开", "sum(yoo_websockets_open)")], "short", "timeseries"),
        ("举报/小时", [("举报", "sum(increase(yoo_room_reports_total[1h]))")], "short", "stat"),
    ]),
    "http": ("HTTP", [
        ("请求/秒（按路由）", [("{{route}}", "route:yoo_http_requests:rate1m")], "reqps", "timeseries"),
        ("p99（按路由）", [("{{route}}", "route:yoo_http_request_duration_seconds:p99_5m")], "s", "timeseries"),
        ("5xx 比例", [("5xx", "yoo:http_5xx:ratio_rate5m")], "percentunit", "timeseries"),
        ("状态码/秒", [("{{status}}", "sum by (status) (rate(yoo_http_requests_total[1m]))")], "reqps", "timeseries"),
    ]),
    "providers": ("外部服务", [
        ("短信发送/秒（按结果）", [("{{outcome}}", "outcome:yoo_sms_sends:rate5m")], "ops", "timeseries"),
        ("支付通知/秒（按结果）", [("{{provider}} {{outcome}}", "provider_outcome:yoo_payment_notices:rate5m")], "ops", "timeseries"),
        ("堆内存", [("已分配", "yoo_heap_in_use_bytes")], "bytes", "timeseries"),
    ]),
    "cluster": ("集群", [
        ("存活进程", [("进程", "max(yoo_cluster_processes)")], "short", "stat"),
        ("进程在线（按进程）", [("{{process}}", "max by (process) (yoo_cluster_process_up)")], "short", "timeseries"),
        ("持有的队列（按进程）", [("{{instance}}", "sum by (instance) (yoo_cluster_leases_held)")], "short", "timeseries"),
        ("租约续期耗时 p99", [("{{instance}}", 'max by (instance) (yoo_cluster_lease_renewal_seconds{quantile="0.99"})')], "s", "timeseries"),
        ("接管（10 分钟）", [("{{kind}}", "sum by (kind) (increase(yoo_cluster_takeovers_total[10m]))")], "short", "timeseries"),
        ("接管恢复耗时 p99", [("{{kind}}", 'max by (kind) (yoo_cluster_restore_seconds{quantile="0.99"})')], "s", "timeseries"),
        ("租约丢失（10 分钟，按原因）", [("{{why}}", "sum by (why) (increase(yoo_cluster_leases_lost_total[10m]))")], "short", "timeseries"),
        ("转发调用/秒（按结果）", [("{{outcome}}", "sum by (outcome) (rate(yoo_cluster_forwarded_total[1m]))")], "reqps", "timeseries"),
        ("转发耗时 p99", [("{{instance}}", 'max by (instance) (yoo_cluster_forward_seconds{quantile="0.99"})')], "s", "timeseries"),
        ("跨进程推送/秒", [("推送", "sum(rate(yoo_cluster_pushes_sent_total[1m]))")], "ops", "timeseries"),
        ("跨进程推送延迟 p99", [("{{instance}}", 'max by (instance) (yoo_cluster_push_delay_seconds{quantile="0.99"})')], "s", "timeseries"),
        ("旧纪元写入被拒（10 分钟）", [("拒绝", "sum(increase(yoo_store_fenced_total[10m]))")], "short", "stat"),
    ]),
}


def panel(i, title, targets, unit, kind):
    width = 12 if kind == "timeseries" else 6
    per_row = 24 // width
    return {
        "id": i + 1,
        "type": kind,
        "title": title,
        "datasource": DATASOURCE,
        "gridPos": {"x": (i % per_row) * width, "y": (i // per_row) * 8, "w": width, "h": 8},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "options": {},
        "targets": [
            {"refId": chr(ord("A") + k), "datasource": DATASOURCE, "expr": expr, "legendFormat": legend}
            for k, (legend, expr) in enumerate(targets)
        ],
    }


def dashboard(key, title, panels):
    return {
        "uid": f"yoo-{key}",
        "title": title,
        "tags": ["yoo"],
        "timezone": "browser",
        "schemaVersion": 39,
        "version": 1,
        "refresh": "10s",
        "time": {"from": "now-1h", "to": "now"},
        "panels": [panel(i, *p) for i, p in enumerate(panels)],
    }


def rendered():
    return {
        f"{key}.json": json.dumps(dashboard(key, title, panels), ensure_ascii=False, indent=2) + "\n"
        for key, (title, panels) in DASHBOARDS.items()
    }


def main():
    out = os.path.join(HERE, "dashboards")
    files = rendered()
    if "--check" in sys.argv:
        stale = [n for n, text in files.items() if not os.path.exists(os.path.join(out, n)) or open(os.path.join(out, n)).read() != text]
        extra = sorted(set(os.listdir(out)) - set(files))
        if stale or extra:
            print(f"ops/grafana/dashboards differ from build.py: {stale + extra}; run python3 ops/grafana/build.py")
            sys.exit(1)
        print(f"ops/grafana: {len(files)} dashboards match build.py")
        return
    for name, text in files.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
    print(f"wrote {len(files)} dashboards to {out}")


if __name__ == "__main__":
    main()
