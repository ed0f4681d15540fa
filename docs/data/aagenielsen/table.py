"""The site table of docs/variants.md, from `tafl games site --json` (site-check.json here).

    cd OpenTafl-Python/AageNielsen/AageNielsenData/GameJSONData
    tafl games site . --json > site-check.json
    python3 table.py site-check.json
"""
import json
import sys

report = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "site-check.json"))
print(
    f"**{report['covered_types']} of {report['checked_types']} types covered, "
    f"{report['covered_games']:,} of {report['checked_games']:,} games.**\n"
)
print(
    "| type | the site's name | games | the bundled file that replays most "
    "| of its first 100 | the site's attackers' share of decided games (95%); without time losses |"
)
print("|---:|---|---:|---|---:|---|")
for t in report["types"]:
    if not t["checked"]:
        continue
    all_games = t["site"]["attackers_share"]
    by_play = t["site"]["attackers_share_without_time"]
    file = f"`{t['variant']}`" if t["variant"] else "none"
    covered = " (covered)" if t["covered"] else ""
    print(
        f"| {t['key']} | {t['name']} | {t['games']:,} | {file} | {t['replayed']}{covered} "
        f"| {all_games['rate']:.2f} ({all_games['low']:.2f}-{all_games['high']:.2f}); "
        f"{by_play['rate']:.2f} |"
    )
