import Foundation
import RunModel

/// The frame every page shares: XHTML-parsable HTML5, one inline stylesheet, no scripts, no external resources.
enum Page {
  /// - Parameter now: shown in the footer (with the refresh period); no footer without it.
  /// - Parameter refreshOnlyWithoutScript: the refresh sits in `<noscript>` (a page whose script follows it live).
  static func render(
    title: String, refreshSeconds: Int?, now: Date?, body: Markup, refreshOnlyWithoutScript: Bool = false
  ) -> String {
    var refresh: Markup = refreshSeconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\"/>\n" } ?? ""
    if refreshOnlyWithoutScript && refreshSeconds != nil {
      refresh = "<noscript>" + refresh + "</noscript>\n"
    }
    var footer: Markup = ""
    if let now {
      footer = "<footer>Rendered \(Formatting.utc(now))"
      if let refreshSeconds { footer += " · refreshes every \(refreshSeconds) s" }
      footer += "</footer>\n"
    }
    let page: Markup = """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
      <head>
      <meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <meta http-equiv="Content-Security-Policy" content="\(Dashboard.metaContentSecurityPolicy)"/>
      \(refresh)<title>\(title)</title>
      <style>\(stylesheet)</style>
      </head>
      <body>
      \(body)
      \(footer)</body>
      </html>

      """
    return page.rendered
  }

  static func stateBadge(_ state: RunState) -> Markup {
    "<span class=\"badge s-\(state.rawValue)\">\(state.rawValue)</span>"
  }

  static func targetBadge(_ status: TargetStatus?) -> Markup {
    let kind = status.map { $0 == .skipped ? "notRun" : $0.rawValue } ?? "pending"
    return "<span class=\"badge t-\(kind)\">\(GraphStyle.statusText(status))</span>"
  }

  /// "3 min ago", with the absolute UTC time as a tooltip.
  static func time(_ date: Date, now: Date) -> Markup {
    "<time datetime=\"\(APIJSON.timestamp(date))\" title=\"\(Formatting.utc(date))\">\(Formatting.relative(date, now: now))</time>"
  }

  /// The short commit id, the whole one as its title; a link to `link` (the commit on its forge) when given.
  static func commit(_ commit: String, link: String? = nil) -> Markup {
    let code: Markup = "<code class=\"sha\" title=\"\(commit)\">\(Formatting.shortCommit(commit))</code>"
    guard let link else { return code }
    return "<a class=\"forge\" href=\"\(link)\">\(code)</a>"
  }

  static func count(_ selected: Int?, of total: Int?) -> Markup {
    switch (selected, total) {
    case (let selected?, let total?): "\(selected) of \(total)"
    case (let selected?, nil): "\(selected)"
    default: "<span class=\"muted\">–</span>"
    }
  }

  static let dash: Markup = "<span class=\"muted\">–</span>"

  /// Light theme, system fonts, compact tables. No `<` or `&` (the page must stay XML).
  static let stylesheet: Markup = """
    :root{--fg:#0f172a;--muted:#64748b;--line:#e2e8f0;--bg:#f6f7f9;--card:#fff;--link:#1d4ed8}
    *{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%}
    body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;\
    color:var(--fg);background:var(--bg)}
    a{color:var(--link);text-decoration:none}
    a:hover{text-decoration:underline}
    code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
    .muted{color:var(--muted)}
    .top{display:flex;align-items:center;gap:10px 14px;flex-wrap:wrap;padding:10px 24px;background:#0f172a;\
    color:#cbd5e1}
    .top .brand{color:#fff;font-weight:700;font-size:16px;letter-spacing:.2px}
    .top .version{color:#94a3b8;font-size:12px}
    .top .activity{margin-left:auto;color:#e2e8f0;overflow-wrap:anywhere}
    main{max-width:1280px;margin:0 auto;padding:16px 24px 24px}
    footer{max-width:1280px;margin:0 auto;padding:0 24px 24px;color:var(--muted);font-size:12px}
    h1{font-size:20px;margin:0}
    h2{font-size:16px;margin:22px 0 8px}
    .pill{display:inline-block;padding:1px 9px;border-radius:999px;font-size:12px;font-weight:600;\
    white-space:nowrap}
    .pill.good{background:#14532d;color:#bbf7d0}
    .pill.bad{background:#7f1d1d;color:#fecaca}
    .pill.wait{background:#334155;color:#e2e8f0}
    .stats{display:flex;flex-wrap:wrap;gap:10px;margin:0 0 14px}
    .stat{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:130px}
    .stat .label{font-size:11px;text-transform:uppercase;letter-spacing:.5px;color:var(--muted)}
    .stat .value{font-size:18px;font-weight:600}
    .stat .value.small{font-size:14px;font-weight:500;padding-top:3px}
    .box{border-radius:8px;padding:10px 14px;margin:0 0 14px;border:1px solid}
    .box ul{margin:4px 0 0;padding-left:20px}
    .box.problem{background:#fef2f2;border-color:#fecaca;color:#7f1d1d}
    .box.warn{background:#fffbeb;border-color:#fde68a;color:#713f12}
    .box.info{background:#eff6ff;border-color:#bfdbfe;color:#1e3a8a}
    .box.plain{background:var(--card);border-color:var(--line);color:var(--muted)}
    .card{background:var(--card);border:1px solid var(--line);border-radius:8px;overflow:hidden}
    .scroll{overflow-x:auto}
    table{border-collapse:collapse;width:100%;table-layout:fixed}
    table.runs{min-width:1060px}
    table.targets{min-width:900px}
    col.c-run{width:76px}
    col.c-state{width:112px}
    col.c-head{width:300px}
    td.head .commit-name{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:12.5px;\
    color:#334155}
    .commit-name .author{color:var(--muted)}
    .facts .commit-name .subject{font-weight:600;white-space:pre-wrap}
    col.c-trigger{width:84px}
    col.c-queued{width:104px}
    col.c-duration{width:136px}
    col.c-tests{width:80px}
    col.c-failed{width:64px}
    col.c-target{width:250px}
    col.c-kind{width:80px}
    col.c-why{width:300px}
    col.c-status{width:208px}
    .targets .badge{white-space:nowrap}
    p.target-note{margin:0;font-size:12px}
    .targets col.c-duration{width:84px}
    th,td{text-align:left;padding:5px 10px;border-top:1px solid var(--line);vertical-align:top}
    thead th{border-top:0;font-size:11px;text-transform:uppercase;letter-spacing:.4px;color:var(--muted);\
    font-weight:600;background:#f8fafc;white-space:nowrap}
    tr.group th{background:#f1f5f9;font-size:13px;font-weight:600;color:var(--fg);padding:6px 10px}
    tr.group th .muted{font-weight:400}
    td.nowrap,th.nowrap{white-space:nowrap}
    th.num,td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
    td.reason{color:#475569;min-width:180px;overflow-wrap:anywhere}
    td.fail{color:#b91c1c;font-weight:600}
    .repo{margin:0 0 22px}
    .repo-head{display:flex;align-items:baseline;gap:4px 14px;flex-wrap:wrap;margin:0 0 8px}
    .repo-head h2{margin:0}
    .repo-error{color:#b91c1c;font-size:13px;overflow-wrap:anywhere}
    .badge{display:inline-block;min-width:64px;text-align:center;padding:1px 7px;border-radius:5px;\
    font-size:12px;font-weight:600;border:1px solid;white-space:nowrap}
    .s-queued{background:#f1f5f9;color:#475569;border-color:#cbd5e1}
    .s-running{background:#dbeafe;color:#1e40af;border-color:#93c5fd}
    .s-passed,.t-passed{background:#dcfce7;color:#166534;border-color:#86efac}
    .s-failed,.t-failed{background:#fee2e2;color:#991b1b;border-color:#fca5a5}
    .s-error{background:#f3e8ff;color:#6b21a8;border-color:#d8b4fe}
    .s-superseded,.s-cancelled,.t-notRun{background:#f8fafc;color:#64748b;border-color:#e2e8f0}
    .s-interrupted{background:#ffedd5;color:#9a3412;border-color:#fdba74}
    .t-pending{background:#e0f2fe;color:#075985;border-color:#7dd3fc}
    .crumbs{font-size:13px;color:var(--muted);margin:0 0 8px;overflow-wrap:anywhere}
    .run-head{display:flex;align-items:center;gap:12px;flex-wrap:wrap;margin:0 0 12px}
    .run-head + .run-reason{margin-top:-6px}
    .run-head .badge{font-size:13px;padding:2px 10px}
    .run-reason{margin:0 0 14px;color:#334155;overflow-wrap:anywhere}
    .facts{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));margin:0;padding:2px 0}
    @media (max-width:800px){.facts{grid-template-columns:repeat(2,minmax(0,1fr))}}
    .facts div{padding:6px 14px;min-width:0}
    .facts div.wide{grid-column:span 2}
    .facts div.full{grid-column:1/-1}
    .facts .sub{display:block;font-size:12px;color:var(--muted)}
    .facts dt{font-size:11px;text-transform:uppercase;letter-spacing:.4px;color:var(--muted)}
    .facts dd{margin:1px 0 0;overflow-wrap:anywhere}
    .columns{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 24px;margin:0 0 16px}
    @media (max-width:800px){.columns{grid-template-columns:minmax(0,1fr)}}
    ol.timeline{list-style:none;margin:0;padding:4px 14px}
    ol.timeline li{display:flex;gap:10px;align-items:baseline;padding:5px 0;border-top:1px solid var(--line)}
    ol.timeline li:first-child{border-top:0}
    ol.timeline .at{font-variant-numeric:tabular-nums;color:var(--muted);min-width:84px;text-align:right;white-space:nowrap}
    ol.timeline .note{color:#334155;overflow-wrap:anywhere}
    ul.files{list-style:none;margin:0;padding:6px 14px;max-height:320px;overflow:auto}
    ul.files li{padding:1px 0;overflow-wrap:anywhere}
    details summary{cursor:pointer;padding:6px 14px;color:var(--muted)}
    .graph{padding:10px;overflow:auto;max-height:75vh;max-width:100%}
    .graph svg{display:block;max-width:none;height:auto}
    details.graph-box{margin:0 0 16px;min-width:0}
    details.graph-box > summary{padding:0;list-style-position:outside;margin:22px 0 8px}
    details.graph-box > summary h2{display:inline;margin:0}
    ul.reasons{margin:0;padding:0;list-style:none}
    ul.reasons li{overflow-wrap:anywhere}
    ul.failures{margin:0;padding:0;list-style:none}
    ul.failures li{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12px;\
    color:#991b1b;white-space:pre-wrap;overflow-wrap:anywhere;padding:1px 0}
    td .pkg{display:block;font-size:12px;color:var(--muted);overflow-wrap:anywhere}
    td .name{font-weight:600;overflow-wrap:anywhere}
    tr:target td{background:#fefce8}
    .not-found{max-width:640px;margin:40px auto}
    .misses{margin:0 0 22px}
    form.filters{display:flex;gap:6px 14px;align-items:center;flex-wrap:wrap;margin:0 0 14px;font-size:13px;\
    color:var(--muted)}
    form.filters select,form.filters input{font:inherit;color:var(--fg);padding:3px 6px;border:1px solid var(--line);\
    border-radius:6px;background:var(--card)}
    nav.pager{margin:0 0 22px;font-size:13px}
    .target-bars{margin:0 0 14px}
    .target-bars svg{display:block;max-width:100%;height:auto}
    svg.phases{display:block;margin-top:3px;border-radius:2px}
    .ph-build{fill:#f59e0b}
    .ph-test{fill:#3b82f6}
    .tb-passed{fill:#16a34a}
    .tb-failed{fill:#dc2626}
    .tb-notRun,.tb-cached{fill:#94a3b8}
    .tb-pending{fill:#0284c7}
    td .name a{color:inherit}
    tr.group th a.branch-link{color:var(--fg)}
    .controls{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:0 0 12px}
    .controls form{margin:0}
    button{font:inherit;padding:4px 14px;border-radius:6px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;\
    cursor:pointer}
    button.quiet{background:var(--card);color:var(--fg);border-color:var(--line)}
    form.login{display:flex;flex-direction:column;gap:6px;max-width:360px;margin:12px 0}
    form.login input[type=password]{font:inherit;padding:5px 8px;border:1px solid var(--line);border-radius:6px}
    pre.log{margin:0 0 16px;padding:10px 14px;max-height:60vh;overflow:auto;white-space:pre-wrap;\
    overflow-wrap:anywhere;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;\
    font-size:12px}
    @media (prefers-reduced-motion:no-preference){.s-running{animation:pulse 2s ease-in-out infinite}}
    @keyframes pulse{50%{background:#bfdbfe}}
    \(HistoryCharts.stylesheet)
    """
}
