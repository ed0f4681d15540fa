"""The site table of docs/variants.md, from `tafl games site --json` (site-check.json here).

    cd OpenTafl-Python/AageNielsen/AageNielsenData/GameJSONData
    tafl games site . --json > site-check.json
    python3 table.py site-check.json [site-types.json]

With a second file, also writes the types each bundled file plays (`tafl list` shows them):
variants/aagenielsen/site-types.json.
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

# The types each bundled file plays, for `tafl list`: every checked type whose best file replays
# at least 90 of its first 100 games (variants/aagenielsen/site-types.json).
if len(sys.argv) > 2:
    types = [
        {"key": t["key"], "name": t["name"], "variant": t["variant"], "replays": t["replayed"], "of": t["of"]}
        for t in report["types"]
        if t["checked"] and t["variant"] and t["of"] and t["replayed"] * 100 >= 90 * t["of"]
    ]
    with open(sys.argv[2], "w") as out:
        json.dump(types, out, indent=2, ensure_ascii=False)
        out.write("\n")
