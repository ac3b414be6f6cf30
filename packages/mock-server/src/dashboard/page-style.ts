// The dashboard's style sheet, served as /_mock/dashboard.css (the CSP allows no inline style).
export const DASHBOARD_CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:0 1rem 2rem;color:#1a1a1a}
h1{font-size:1.3rem;margin:1rem 0 .25rem}h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
.bar{margin:.25rem 0}.buttons button,.pager button,form button{margin-left:.25rem}
#live.on{color:#0a7c2f}#live.off{color:#b42318}#error,#token-refused{color:#b42318}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #e5e5e5;padding:.2rem .4rem;text-align:left;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:18rem}
th{font-weight:600;color:#555}.count,.empty{color:#666;font-weight:400}
.filters label{margin-right:.5rem;display:inline-block}
pre{background:#f6f6f6;padding:.5rem;overflow:auto}
.status-failed,.status-cancelled,.bad{color:#b42318}.status-succeeded{color:#0a7c2f}
footer{margin-top:2rem;color:#666;font-size:.85rem}
.bar,.pager,.filters,#faults{overflow-wrap:anywhere}
@media (max-width:40rem){table,thead,tbody,tr,th,td{display:block}thead{position:absolute;left:-9999px}
tr{border-bottom:1px solid #ccc;padding:.3rem 0}td{border:0;padding:.1rem 0;max-width:none;white-space:normal;overflow-wrap:anywhere}
td[data-label]::before{content:attr(data-label) ": ";color:#555;font-weight:600}.filters input{max-width:100%}}`;
