#!/usr/bin/env python3
"""Counts the SF Symbol names that Swift code names literally, for the frequency list in
Tests/WidgetGraphicsTests/Fixtures/sf-symbol-frequency.tsv (issue 28, item 7).

Usage: scripts/count-symbol-frequency.py CLONE... > list.tsv
Each CLONE is a git repository (a clone or a bare mirror); its HEAD is read. Every literal
`systemName: "..."` or `systemImage: "..."` in a .swift file counts once. Output: one line per
symbol, `all<TAB>widget<TAB>symbol`, most frequent first, where `widget` counts only files that
import WidgetKit or sit in a folder whose name contains "widget"; the repositories, their
commits and counts go to stderr (the list's header names them).
"""
import collections
import re
import subprocess
import sys

LITERAL = re.compile(r'(?:systemName|systemImage)\s*:\s*"([a-z0-9][a-z0-9.]*)"')


def git(repo, *args):
    return subprocess.run(['git', '-C', repo, *args], capture_output=True, text=True, errors='replace').stdout


def main(repos):
    every, widget = collections.Counter(), collections.Counter()
    for repo in repos:
        files = [f for f in git(repo, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n') if f.endswith('.swift')]
        n = 0
        for f in files:
            text = git(repo, 'show', 'HEAD:' + f)
            names = LITERAL.findall(text)
            in_widget = 'import WidgetKit' in text or any('widget' in part.lower() for part in f.split('/')[:-1])
            for name in names:
                every[name] += 1
                if in_widget:
                    widget[name] += 1
            n += len(names)
        print(f'{repo} {git(repo, "rev-parse", "HEAD").strip()[:12]} {n}', file=sys.stderr)
    for name, count in sorted(every.items(), key=lambda kv: (-kv[1], -widget[kv[0]], kv[0])):
        print(f'{count}\t{widget[name]}\t{name}')


if __name__ == '__main__':
    main(sys.argv[1:])
