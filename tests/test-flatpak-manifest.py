#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Flatpak manifest, which cannot be built here (no runtime can be fetched):
it parses; its finish-args are exactly those the desktop guest's sandbox grants
(the "# finish-arg" lines of tests/vm/vm-desktop-guest.sh); every module's source is
pinned (git: a full commit; archive/file: sha256; dir: the app's own tree only); and
what its comments say the code does, the code does (UDisks2 names found in
src/gui/nsc-udisks.c, the sandbox test in the guest script)."""
import json
import os
import re
import sys

src = os.environ.get('G_TEST_SRCDIR') or os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(src.rstrip('/'))
manifest_path = os.path.join(top, 'flatpak', 'io.github.nandscope.Nandscope.json')
guest_path = os.path.join(top, 'tests', 'vm', 'vm-desktop-guest.sh')
udisks_path = os.path.join(top, 'src', 'gui', 'nsc-udisks.c')
fails = passes = 0


def check(cond, what):
    global fails, passes
    print(('ok - ' if cond else 'FAIL - ') + what)
    if cond:
        passes += 1
    else:
        fails += 1


try:
    manifest = json.load(open(manifest_path, encoding='utf-8'))
    check(True, f'{os.path.basename(manifest_path)} parses')
except ValueError as e:
    check(False, f'{manifest_path} parses: {e}')
    print(f'{passes} passed, {fails} failed')
    sys.exit(1)

check(manifest.get('id') == 'io.github.nandscope.Nandscope' and manifest.get('command') == 'nandscope',
      f"id {manifest.get('id')!r}, command {manifest.get('command')!r}")

granted = re.findall(r'^# finish-arg (\S+):', open(guest_path, encoding='utf-8').read(), re.M)
args = manifest.get('finish-args') or []
check(len(args) == len(set(args)), f'finish-args without repeats: {args}')
check(sorted(args) == sorted(granted),
      f'finish-args {sorted(args)} are exactly what the sandbox test grants {sorted(granted)}')

for module in manifest.get('modules') or []:
    name = module.get('name') if isinstance(module, dict) else module
    sources = module.get('sources') if isinstance(module, dict) else None
    check(bool(sources), f'module {name} has its sources in the manifest')
    for s in sources or []:
        kind = s.get('type')
        if kind == 'git':
            ok = bool(re.fullmatch(r'[0-9a-f]{40}', s.get('commit') or ''))
            what = f"git commit {s.get('commit')}"
        elif kind in ('archive', 'file'):
            ok = bool(re.fullmatch(r'[0-9a-f]{64}', s.get('sha256') or ''))
            what = f"{kind} sha256 {s.get('sha256')}"
        elif kind == 'dir':
            ok = name == 'nandscope' and s.get('path') == '..'
            what = f"the app's own tree ({s.get('path')})"
        else:
            ok, what = False, f'source type {kind}'
        check(ok, f'module {name}: pinned by {what}')

# What the comments say the code does.
comments = manifest.get('//')
text = ' '.join(comments if isinstance(comments, list) else [comments or ''])
code = open(udisks_path, encoding='utf-8').read()
named = sorted(set(re.findall(r'\b(?:Block|Filesystem|Swapspace|Drive)\.[A-Z]\w+', text)))
check(len(named) > 0, f'the comments name UDisks2 calls and properties: {named}')
for n in named:
    iface, member = n.split('.')
    check(f'"{member}"' in code and f'UDisks2.{iface}' in code,
          f'{n}: src/gui/nsc-udisks.c uses it')
check('/.flatpak-info' in code, 'the sandbox is recognised (/.flatpak-info) in src/gui/nsc-udisks.c')
print(f'{passes} passed, {fails} failed')
sys.exit(1 if fails else 0)
