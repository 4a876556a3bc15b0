#!/usr/bin/env python3
"""Tests of the `manyfold` command line, one behaviour per case.

Usage: cli_test.py --manyfold PATH --checker PATH --scenes DIR CASE
Each CASE is a function below named test_CASE; `cli_test.py --list` prints them.
"""
import argparse
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

ARGS = None
SCENE_NAMES = ['box_stack', 'rock_pile', 'box_crowd', 'bunnies']


class Failure(Exception):
    pass


def manyfold(*args, cwd=None):
    """Runs the program; returns (exit status, stdout, stderr)."""
    done = subprocess.run([ARGS.manyfold] + [str(a) for a in args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)
    return done.returncode, done.stdout, done.stderr


def expect(condition, message):
    if not condition:
        raise Failure(message)


def expect_exit(result, status, what):
    code, out, err = result
    expect(code == status, '%s: exit status %d, expected %d\nstdout: %s\nstderr: %s' % (what, code, status, out, err))


def scene_path(name):
    return os.path.join(ARGS.scenes, name + '.json')


def report_field(out, name):
    match = re.search(r'^%s\s+(\S+)' % re.escape(name), out, re.M)
    expect(match is not None, 'the report has no "%s" line:\n%s' % (name, out))
    return match.group(1)


def check_json_lines(path, steps=1):
    """Every line is one manifold with the documented fields; returns the records."""
    records = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            try:
                record = json.loads(line)
            except ValueError as error:
                raise Failure('%s:%d: not JSON: %s' % (path, number, error))
            for key, kind in (('step', int), ('pair', int), ('a', int), ('b', int), ('normal', list),
                              ('contacts', list)):
                expect(isinstance(record.get(key), kind), '%s:%d: "%s" missing or not %s' % (path, number, key, kind))
            expect(0 <= record['step'] < steps, '%s:%d: step %d out of range' % (path, number, record['step']))
            expect(record['a'] != record['b'], '%s:%d: a pair of one body' % (path, number))
            normal = record['normal']
            expect(len(normal) == 3 and abs(math.sqrt(sum(x * x for x in normal)) - 1) < 1e-4,
                   '%s:%d: the normal is not a unit vector' % (path, number))
            expect(1 <= len(record['contacts']) <= 8, '%s:%d: %d contacts' % (path, number, len(record['contacts'])))
            ids = set()
            for contact in record['contacts']:
                expect(len(contact['point']) == 3 and all(math.isfinite(x) for x in contact['point']),
                       '%s:%d: a bad contact point' % (path, number))
                expect(math.isfinite(contact['separation']), '%s:%d: a bad separation' % (path, number))
                halves = contact['id']
                expect(isinstance(halves, list) and len(halves) == 2 and
                       all(isinstance(h, int) and 0 <= h <= 0xffff for h in halves),
                       '%s:%d: the id should be its two feature halves, [a\'s, b\'s]: %r' % (path, number, halves))
                ids.add(tuple(halves))
            expect(len(ids) == len(record['contacts']), '%s:%d: repeated feature ids' % (path, number))
            records.append(record)
    return records


def check_against_library(scene, path, bodies=None):
    args = [ARGS.checker, scene, path] + ([str(bodies)] if bodies else [])
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    expect(done.returncode == 0, 'the file differs from a direct mf_collide:\n%s%s' % (done.stdout, done.stderr))


def supported_isas():
    code, out, _ = manyfold('info')
    expect(code == 0, 'manyfold info failed')
    return report_line(out, 'isas supported').split()


def report_line(out, name):
    match = re.search(r'^%s\s+(.*)$' % re.escape(name), out, re.M)
    expect(match is not None, 'no "%s" line in:\n%s' % (name, out))
    return match.group(1)


# ---- run ----

def test_run_default_pile():
    result = manyfold('run', '--bodies', 800)
    expect_exit(result, 0, 'run --bodies 800')
    code, out, err = result
    expect(report_field(out, 'bodies') == '800', 'the pile should have 800 bodies:\n' + out)
    pairs, touching, contacts = (int(report_field(out, n)) for n in ('candidate pairs', 'touching pairs', 'contacts'))
    expect(0 < touching <= pairs and touching <= contacts <= 4 * touching, 'implausible counts:\n' + out)
    expect(report_field(out, 'isa') in ('scalar', 'sse', 'avx2', 'avx512', 'neon'), 'no ISA named:\n' + out)
    expect(int(report_field(out, 'threads')) >= 1, 'no thread count:\n' + out)
    float(report_field(out, 'pairs/s'))
    expect(err == '', 'stderr is not a terminal, so no progress bar, but got: %r' % err)


def test_run_default_pile_is_deterministic():
    first, second = manyfold('run', '--bodies', 500), manyfold('run', '--bodies', 500)
    keys = ('candidate pairs', 'touching pairs', 'contacts')
    expect([report_field(first[1], k) for k in keys] == [report_field(second[1], k) for k in keys],
           'two runs of the same pile differ')


def run_scene_and_compare(name):
    with tempfile.TemporaryDirectory() as tmp:
        for extension in ('jsonl', 'csv'):
            out_path = os.path.join(tmp, 'out.' + extension)
            result = manyfold('run', scene_path(name), '--out', out_path)
            expect_exit(result, 0, 'run %s --out %s' % (name, out_path))
            if extension == 'jsonl':
                records = check_json_lines(out_path)
                expect(len(records) == int(report_field(result[1], 'touching pairs')),
                       'the file holds %d manifolds, the report says otherwise' % len(records))
                expect(sum(len(r['contacts']) for r in records) == int(report_field(result[1], 'contacts')),
                       'the file and the report disagree on contacts')
            else:
                with open(out_path) as f:
                    lines = f.read().splitlines()
                expect(lines[0].split(',')[0] == 'step' and len(lines) - 1 == int(report_field(result[1], 'contacts')),
                       'the CSV should hold a header and one row per contact')
            check_against_library(scene_path(name), out_path)


def test_run_box_stack():
    run_scene_and_compare('box_stack')


def test_run_rock_pile():
    run_scene_and_compare('rock_pile')


def test_run_box_crowd():
    run_scene_and_compare('box_crowd')


def test_run_bunnies():
    run_scene_and_compare('bunnies')


def test_run_readme_example_scene():
    with open(os.path.join(ARGS.scenes, 'README.md')) as f:
        example = re.search(r'```json\n(.*?)```', f.read(), re.S).group(1)
    mesh = os.path.join(os.path.abspath(ARGS.scenes), 'meshes', 'bunny.obj')
    with tempfile.TemporaryDirectory() as tmp:
        path = write(os.path.join(tmp, 'example.json'), example.replace('meshes/bunny.obj', mesh))
        code, out, err = manyfold('run', path)
        expect(code == 0 and report_field(out, 'bodies') == '3', 'the README\'s example fails: %s%s' % (out, err))


def test_run_and_render_an_empty_scene():
    with tempfile.TemporaryDirectory() as tmp:
        path = write(os.path.join(tmp, 'empty.json'), '{"shapes": [], "bodies": []}')
        code, out, err = manyfold('run', path)
        expect(code == 0 and report_field(out, 'candidate pairs') == '0', 'run an empty scene: %s%s' % (out, err))
        picture = os.path.join(tmp, 'empty.png')
        code, out, err = manyfold('render', path, '-o', picture, '--size', '64x48')
        expect(code == 0 and png_size(picture) == (64, 48), 'render an empty scene: %s%s' % (out, err))
        code, out, err = manyfold('run', '--bodies', 1)
        expect(code == 0 and report_field(out, 'candidate pairs') == '0', 'a pile of just the ground: ' + out + err)


def test_double_dash_ends_options():
    code, out, err = manyfold('run', '--', '--no-such-scene.json')
    expect(code == 1 and '--no-such-scene.json: cannot open' in err, 'after --, a name is a scene: %r' % err)


def test_run_default_out_matches_library():
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, 'pile.jsonl')
        expect_exit(manyfold('run', '--bodies', 1500, '--out', out_path), 0, 'run --out')
        check_json_lines(out_path)
        check_against_library('default', out_path, 1500)


def test_run_steps_write_every_step():
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, 'steps.jsonl')
        result = manyfold('run', '--bodies', 300, '--steps', 3, '--out', out_path)
        expect_exit(result, 0, 'run --steps 3')
        records = check_json_lines(out_path, steps=3)
        expect({r['step'] for r in records} == {0, 1, 2}, 'expected manifolds for steps 0, 1 and 2')
        expect(report_field(result[1], 'steps') == '3', 'the report should say 3 steps')
        check_against_library('default', out_path, 300)  # step 0 is the unperturbed pile


def test_run_every_supported_isa_agrees():
    counts = {}
    for isa in supported_isas():
        code, out, err = manyfold('run', '--bodies', 600, '--isa', isa)
        expect(code == 0, '--isa %s: exit %d: %s' % (isa, code, err))
        expect(report_field(out, 'isa') == isa, '--isa %s ran %s' % (isa, report_field(out, 'isa')))
        counts[isa] = (report_field(out, 'touching pairs'), report_field(out, 'contacts'))
    expect(len(set(counts.values())) == 1, 'ISAs disagree on (touching pairs, contacts): %s' % counts)


def test_run_unsupported_isa_exits_1():
    unsupported = [isa for isa in ('scalar', 'sse', 'avx2', 'avx512', 'neon') if isa not in supported_isas()]
    if not unsupported:
        print('every ISA is supported here; nothing to refuse')
        return
    code, out, err = manyfold('run', '--bodies', 10, '--isa', unsupported[0])
    expect(code == 1, '--isa %s: exit %d, expected 1' % (unsupported[0], code))
    expect('unsupported ISA' in err and err.count('\n') == 1, 'expected one line: %r' % err)
    # In the command line's words: its ISA names, no C API names, and what runs here instead.
    expect('MF_ISA' not in err and 'mf_isa' not in err, 'C API names in %r' % err)
    expect(('here: auto (%s)' % report_field(manyfold('run', '--bodies', 10)[1], 'isa')) in err and
           all(isa in err for isa in supported_isas()), 'the ISAs that run here should be named: %r' % err)
    if 'neon' in unsupported and 'avx2' in supported_isas():
        code, out, err = manyfold('run', '--bodies', 10, '--isa', 'neon')
        expect("neon is ARM's (aarch64) and this program is built for x86-64" in err, '--isa neon: %r' % err)


def test_run_threads_option():
    code, out, err = manyfold('run', '--bodies', 300, '--threads', 1)
    expect(code == 0 and report_field(out, 'threads') == '1', '--threads 1: %s %s' % (out, err))


def test_run_usage_errors_exit_2():
    cases = [('--bodies', 'many'), ('--bodies', '0'), ('--bodies', '-5'), ('--isa', 'mmx'), ('--threads',),
             ('--steps', '0'), ('--frobnicate',), ('a.json', 'b.json'), (scene_path('box_stack'), '--bodies', '5')]
    for args in cases:
        code, out, err = manyfold('run', *args)
        expect(code == 2, 'run %s: exit %d, expected 2 (%s)' % (' '.join(args), code, err))
        expect("Try 'manyfold run --help'" in err, 'run %s: no hint to --help: %r' % (' '.join(args), err))


def test_run_out_unwritable_exits_1():
    code, out, err = manyfold('run', scene_path('box_stack'), '--out', '/nonexistent-dir/out.jsonl')
    expect(code == 1 and '/nonexistent-dir/out.jsonl: cannot create' in err, 'exit %d: %r' % (code, err))
    if os.path.exists('/dev/full'):  # a write that fails only when the buffer is flushed
        code, out, err = manyfold('run', scene_path('box_stack'), '--out', '/dev/full')
        expect(code == 1 and '/dev/full: cannot write' in err, 'a full disk: exit %d: %r' % (code, err))


# ---- help and version ----

def test_help_and_version():
    code, out, _ = manyfold('--help')
    expect(code == 0 and out.startswith('Usage: manyfold'), '--help')
    code, out, _ = manyfold('--version')
    expect(code == 0 and re.match(r'^manyfold \d+\.\d+\.\d+\n$', out), '--version printed %r' % out)
    for command in ('run', 'render', 'hull', 'info'):
        code, out, _ = manyfold(command, '--help')
        expect(code == 0 and out.startswith('Usage: manyfold ' + command), '%s --help' % command)
        code, out2, _ = manyfold('help', command)
        expect(code == 0 and out2 == out, 'help %s differs from %s --help' % (command, command))


def test_usage_errors_exit_2():
    for args in ([], ['frobnicate'], ['--frobnicate'], ['info', 'extra'], ['hull'], ['help', 'nothing']):
        code, out, err = manyfold(*args)
        expect(code == 2, 'manyfold %s: exit %d, expected 2' % (' '.join(args), code))
        expect(err != '', 'manyfold %s: nothing on stderr' % ' '.join(args))


# ---- info ----

def test_info():
    code, out, _ = manyfold('info')
    expect(code == 0, 'info failed')
    expect(re.search(r'^manyfold\s+\d+\.\d+\.\d+', out, re.M), 'no version:\n' + out)
    chosen = report_line(out, 'isa (auto)')
    isa, _, reason = chosen.partition(': ')
    expect(isa in supported_isas(), 'AUTO picks an ISA it does not support')
    expect(reason.strip() != '', 'info does not say why AUTO picks %s:\n%s' % (isa, out))
    expect(re.search(r'^cpu features\s+\S', out, re.M) and re.search(r'^topology\s+.*\d', out, re.M),
           'no CPU features or topology:\n' + out)


# ---- render ----

def png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    expect(head[:8] == b'\x89PNG\r\n\x1a\n', '%s: no PNG signature' % path)
    expect(head[12:16] == b'IHDR', '%s: the first chunk is not IHDR' % path)
    return struct.unpack('>II', head[16:24])


def svg_size(path):
    root = ElementTree.parse(path).getroot()  # also checks the XML is well formed
    expect(root.tag.endswith('svg'), '%s: the root element is %s' % (path, root.tag))
    return tuple(int(float(root.get(k).replace('px', ''))) for k in ('width', 'height'))


def test_render_png_of_each_scene():
    with tempfile.TemporaryDirectory() as tmp:
        for name in SCENE_NAMES:
            out_path = os.path.join(tmp, name + '.png')
            expect_exit(manyfold('render', scene_path(name), '-o', out_path, '--size', '320x240'), 0, 'render ' + name)
            expect(png_size(out_path) == (320, 240), '%s: PNG size %s, asked 320x240' % (name, png_size(out_path)))


def test_render_svg():
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, 'stack.svg')
        expect_exit(manyfold('render', scene_path('box_stack'), '--size', '640x400', '-o', out_path), 0, 'render svg')
        expect(svg_size(out_path) == (640, 400), 'SVG size %s, asked 640x400' % (svg_size(out_path),))


def test_render_default_pile():
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, 'pile.png')
        expect_exit(manyfold('render', 'default', '--bodies', 300, '-o', out_path), 0, 'render default')
        expect(png_size(out_path) == (1024, 768), 'the default size is 1024x768')


def test_render_from_manifold_file():
    with tempfile.TemporaryDirectory() as tmp:
        for extension in ('jsonl', 'csv'):
            manifolds = os.path.join(tmp, 'rocks.' + extension)
            expect_exit(manyfold('run', scene_path('rock_pile'), '--out', manifolds), 0, 'run --out')
            out_path = os.path.join(tmp, 'rocks.png')
            code, out, err = manyfold('render', scene_path('rock_pile'), '--manifolds', manifolds, '-o', out_path,
                                      '--size', '200x100')
            expect(code == 0, 'render --manifolds %s: %s' % (extension, err))
            _, run_out, _ = manyfold('run', scene_path('rock_pile'))
            expect('%s contacts' % report_field(run_out, 'contacts') in out, 'render should draw every contact: ' + out)
            expect(png_size(out_path) == (200, 100), 'PNG size')


def test_render_bad_manifold_file_exits_1():
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, 'bad.jsonl')
        with open(bad, 'w') as f:
            f.write('{"step":0,"pair":0,"a":0,"b":1,"normal":[0,1,0],"contacts":[]}\n{"pair": "x"}\n')
        code, out, err = manyfold('render', scene_path('box_stack'), '--manifolds', bad, '-o', os.path.join(tmp, 'x.png'))
        expect(code == 1 and ('%s:2:' % bad) in err, 'exit %d: %r' % (code, err))


def test_render_usage_errors_exit_2():
    for args in ([scene_path('box_stack')], [scene_path('box_stack'), '-o', 'x.gif'], ['-o', 'x.png'],
                 [scene_path('box_stack'), '-o', 'x.png', '--size', '10x10'],
                 [scene_path('box_stack'), '-o', 'x.png', '--size', '800'],
                 [scene_path('box_stack'), '-o', 'x.png', '--size', '800x600x2']):
        code, out, err = manyfold('render', *args)
        expect(code == 2, 'render %s: exit %d, expected 2' % (' '.join(args), code))


# ---- render --lammps-dump ----

LAMMPS_FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lammps')


def lammps_fixture(name):
    return os.path.join(LAMMPS_FIXTURES, name)


def render_dump(dump, *args, shapes=None):
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, 'dump.png')
        result = manyfold('render', '--lammps-dump', dump, '--shapes', shapes or lammps_fixture('few_shapes.json'),
                          '-o', out_path, '--size', '320x240', *args)
        size = png_size(out_path) if result[0] == 0 else None
    return result, size


def test_render_lammps_dump_draws_its_last_frame():
    (code, out, err), size = render_dump(lammps_fixture('few.dump'))
    expect(code == 0 and size == (320, 240), 'render --lammps-dump: exit %d, %s%s' % (code, out, err))
    expect('step 200 (frame 3 of the dump), 4 atoms, z up, floor' in out, 'the last frame, z up, a floor: ' + out)


def test_render_lammps_dump_step():
    (code, out, err), size = render_dump(lammps_fixture('few.dump'), '--step', 100, '--up', 'y')
    expect(code == 0 and 'step 100 (frame 2 of the dump), 4 atoms, y up' in out, 'the frame at step 100: ' + out + err)
    expect('floor' not in out, 'no floor along y: the box bounds y periodically: ' + out)
    (code, out, err), _ = render_dump(lammps_fixture('few.dump'), '--step', 50)
    expect(code == 1 and err == 'manyfold render: %s: no frame at step 50 (3 frames, at steps 0 to 200)\n'
           % lammps_fixture('few.dump'), 'a step without a frame: %r' % err)


def test_render_lammps_settled_pile():
    (code, out, err), size = render_dump(lammps_fixture('settled.dump'), shapes=lammps_fixture('rocks.json'))
    expect(code == 0 and size == (320, 240) and 'step 30000 (frame 2 of the dump), 40 atoms' in out,
           'a pile manyfold-lmp settled: %s%s' % (out, err))


def test_render_lammps_dump_svg():
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, 'few.svg')
        expect_exit(manyfold('render', '--lammps-dump', lammps_fixture('few.dump'), '--shapes',
                             lammps_fixture('few_shapes.json'), '-o', out_path, '--size', '300x200'), 0, 'dump to svg')
        expect(svg_size(out_path) == (300, 200), 'SVG size %s, asked 300x200' % (svg_size(out_path),))


def test_render_scene_with_z_up():
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, 'stack.png')
        expect_exit(manyfold('render', scene_path('box_stack'), '--up', 'z', '-o', out_path, '--size', '200x100'), 0,
                    'render --up z')


# Each bad dump: the line of few.dump to change (1-based), what it becomes (None: the file ends
# before it), the line the message names, and the message.
BAD_DUMPS = {
    'missing_shape_column': (11, 'ITEM: ATOMS id type d2_quat[1] x y z vx kind d2_quat[2] d2_quat[3] d2_quat[4]', 11,
                             'ITEM: ATOMS lacks i_shape (manyfold render needs i_shape, x y z and d2_quat[1] to '
                             'd2_quat[4]'),
    'missing_quaternion_columns': (11, 'ITEM: ATOMS id type x y z vx i_shape d2_quat[2]', 11,
                                   'ITEM: ATOMS lacks d2_quat[1], d2_quat[3], d2_quat[4] ('),
    'shape_beyond_library': (13, '2 1 1 1 1 0.8 0 3 0 0 0', 13,
                             'atom 2: i_shape 3 is not in the shape library (it holds 3 shapes, 0 to 2)'),
    'negative_shape': (13, '2 1 1 1 1 0.8 0 -1 0 0 0', 13, 'atom 2: i_shape -1 is not in the shape library'),
    'fractional_shape': (13, '2 1 1 1 1 0.8 0 1.5 0 0 0', 13, "atom 2: i_shape '1.5' is not a whole number"),
    'nan_position': (14, '3 1 1 1.5 nan 1.1 0 2 0 0 0', 14, 'atom 3: y = nan is not finite'),
    'infinite_quaternion': (14, '3 1 1 1.5 1.5 1.1 0 2 inf 0 0', 14, 'atom 3: d2_quat[2] = inf is not finite'),
    'huge_position': (14, '3 1 1 1.5 1.5 1e30 0 2 0 0 0', 14, 'atom 3: z = 1e+30 is beyond 1e+07 in size'),
    'word_position': (14, '3 1 1 1.5 1.5 high 0 2 0 0 0', 14, "atom 3: z 'high' is not a number"),
    'zero_quaternion': (15, '4 1 0 1.5 0.5 1.4 0 0 0 0 0', 15, 'atom 4: the quaternion d2_quat is zero'),
    'short_atom_line': (12, '1 1 1 0.5 0.5 0.5 0 0 0 0', 12, '10 values on an atom line, but ITEM: ATOMS names 11'),
    'truncated_atoms': (15, None, 14, 'the frame at step 0 ends after 3 of its 4 atoms (truncated?)'),
    'truncated_header': (7, None, 6, 'the file ends in the frame at step 0, before its ITEM: ATOMS (truncated?)'),
    'atoms_before_count': (5, 'ITEM: FLAVOUR', 11, 'ITEM: ATOMS before ITEM: NUMBER OF ATOMS in the frame at step 0'),
    'bad_count': (6, 'four', 6, "ITEM: NUMBER OF ATOMS wants a whole number, not 'four'"),
    'fewer_atoms_than_counted': (19, '5', 29, 'the frame at step 100 ends after 4 of its 5 atoms (truncated?)'),
    'bad_box': (9, '0 nan', 9, "ITEM: BOX BOUNDS: 'nan' is not a finite number"),
    'not_a_dump': (1, '{"shapes": []}', 1, "expected ITEM: TIMESTEP to begin a frame, not '{\"shapes\": []}'"),
}


def check_bad_dump(case):
    line, replacement, at, message = BAD_DUMPS[case]
    with open(lammps_fixture('few.dump')) as f:
        lines = f.read().split('\n')
    lines = lines[:line - 1] + ([replacement] + lines[line:] if replacement is not None else [])
    with tempfile.TemporaryDirectory() as tmp:
        path = write(os.path.join(tmp, case + '.dump'), '\n'.join(lines))
        (code, out, err), _ = render_dump(path)
        expected = '%s:%d: %s' % (path, at, message)
        expect(code == 1, '%s: exit %d, expected 1 (%r)' % (case, code, err))
        expect(err.count('\n') == 1, '%s: the message should be one line: %r' % (case, err))
        expect(expected in err, '%s: expected %r in %r' % (case, expected, err))


for _case in BAD_DUMPS:
    globals()['test_render_bad_dump_' + _case] = (lambda case: lambda: check_bad_dump(case))(_case)


def test_render_empty_or_absent_dump_exits_1():
    with tempfile.TemporaryDirectory() as tmp:
        empty = write(os.path.join(tmp, 'empty.dump'), '\n')
        (code, out, err), _ = render_dump(empty)
        expect(code == 1 and err == 'manyfold render: %s: no frames: the file is empty\n' % empty, 'empty: %r' % err)
        (code, out, err), _ = render_dump(os.path.join(tmp, 'absent.dump'))
        expect(code == 1 and 'absent.dump: cannot open: ' in err, 'absent: %r' % err)
        bad_library = write(os.path.join(tmp, 'bad.json'), '{"shapes": [{"name": "x", "box": [1, 1]}], "bodies": []}')
        (code, out, err), _ = render_dump(lammps_fixture('few.dump'), shapes=bad_library)
        expect(code == 1 and bad_library + ':1: shape "x": "box" must be an array of 3 numbers' in err,
               'a bad library: %r' % err)


def test_render_lammps_dump_usage_errors_exit_2():
    dump, shapes = lammps_fixture('few.dump'), lammps_fixture('few_shapes.json')
    for args, message in (
            (['--lammps-dump', dump, '-o', 'x.png'], '--lammps-dump needs the dump\'s shape library'),
            (['--lammps-dump', dump, '--shapes', shapes, scene_path('box_stack'), '-o', 'x.png'],
             'draws a dump instead of a scene'),
            (['--lammps-dump', dump, '--shapes', shapes, '--manifolds', 'm.jsonl', '-o', 'x.png'], '--manifolds'),
            (['--lammps-dump', dump, '--shapes', shapes, '--bodies', '5', '-o', 'x.png'], '--bodies'),
            (['--lammps-dump', dump, '--shapes', shapes], 'where to?'),
            (['--lammps-dump', dump, '--shapes', shapes, '--step', 'first', '-o', 'x.png'], "not 'first'"),
            (['--lammps-dump', dump, '--shapes', shapes, '--step', '-1', '-o', 'x.png'], "not '-1'"),
            (['--lammps-dump', dump, '--shapes', shapes, '--up', 'w', '-o', 'x.png'], "--up wants x, y or z"),
            ([scene_path('box_stack'), '--shapes', shapes, '-o', 'x.png'], '--shapes goes with --lammps-dump'),
            ([scene_path('box_stack'), '--step', '5', '-o', 'x.png'], '--step goes with --lammps-dump')):
        code, out, err = manyfold('render', *args)
        expect(code == 2 and message in err, 'render %s: exit %d, %r' % (' '.join(args), code, err))


def test_render_help_names_the_lammps_options():
    code, out, err = manyfold('render', '--help')
    for option in ('--lammps-dump DUMP', '--shapes FILE', '--step N|last', '--up x|y|z'):
        expect(code == 0 and option in out, 'render --help lacks %s' % option)


# ---- hull ----

def write(path, text):
    with open(path, 'w') as f:
        f.write(text)
    return path


def test_hull_of_obj_mesh():
    mesh = os.path.join(ARGS.scenes, 'meshes', 'bunny.obj')
    code, out, err = manyfold('hull', mesh)
    expect(code == 0, 'hull bunny.obj: %s' % err)
    vertices = int(report_field(out, 'vertices'))
    faces = int(report_field(out, 'faces'))
    edges = int(report_field(out, 'edges'))
    expect(4 <= vertices <= 1024 and vertices - edges + faces == 2, 'Euler fails: V=%d E=%d F=%d' % (vertices, edges, faces))
    expect(float(report_field(out, 'volume')) > 0, 'no volume')
    expect('points dropped' in out, 'interior points of the bunny should be reported dropped:\n' + out)


def test_hull_of_points_reports_drops_welds_and_merges():
    with tempfile.TemporaryDirectory() as tmp:
        lines = ['# a cube, a point inside it, and a corner given twice']
        lines += ['%d %d %d' % (x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
        lines += ['0 0 0', '1, 1, 1', '', '0.5 1 0.25']  # commas work too; the last lies on a face
        path = write(os.path.join(tmp, 'cube.txt'), '\n'.join(lines) + '\n')
        code, out, err = manyfold('hull', path, '--list')
        expect(code == 0, 'hull cube.txt: %s' % err)
        expect(report_field(out, 'vertices') == '8', 'a cube has 8 vertices:\n' + out)
        expect(re.search(r'^faces\s+6 \(by vertex count: 6 x 4\)', out, re.M), 'a cube has 6 quads:\n' + out)
        expect(report_field(out, 'edges') == '12' and abs(float(report_field(out, 'volume')) - 8) < 1e-4, out)
        expect('points dropped' in out and 'welded' in out and 'merged' in out, 'warnings missing:\n' + out)
        expect(out.count('  vertex ') == 8 and out.count('  face ') == 6, '--list should list vertices and faces')


def test_hull_too_large_exits_1_with_the_limit():
    with tempfile.TemporaryDirectory() as tmp:
        count = 3000  # points on a sphere: every one is a hull vertex, beyond the 1024 limit
        golden = math.pi * (3 - math.sqrt(5))
        points = []
        for i in range(count):
            y = 1 - 2 * (i + 0.5) / count
            r = math.sqrt(1 - y * y)
            points.append('%.9f %.9f %.9f' % (r * math.cos(golden * i), y, r * math.sin(golden * i)))
        path = write(os.path.join(tmp, 'sphere.txt'), '\n'.join(points) + '\n')
        code, out, err = manyfold('hull', path)
        expect(code == 1, 'exit %d, expected 1' % code)
        expect(err.startswith('manyfold hull: %s: ' % path) and 'hull too large' in err and
               'more than MF_MAX_HULL_VERTICES (1024) vertices (3000 distinct points)' in err,
               'the message should name the file and the limit: %r' % err)
        # Not the limits the points do not reach.
        expect('4194304' not in err and '1e7' not in err and '2048' not in err, 'limits not exceeded: %r' % err)
        far = write(os.path.join(tmp, 'far.txt'), '0 0 0\n1 0 0\n0 1 0\n0 0 2e7\n')
        code, out, err = manyfold('hull', far)
        expect(code == 1 and 'point 4 has z = 2e+07: coordinates stay within MF_MAX_LENGTH' in err and
               '1024' not in err, 'a coordinate beyond the limit: %r' % err)


def test_hull_bad_inputs_exit_1():
    with tempfile.TemporaryDirectory() as tmp:
        cases = [
            ('flat.txt', '0 0 0\n1 0 0\n0 1 0\n1 1 0\n', 'degenerate hull'),
            ('few.txt', '0 0 0\n1 0 0\n', 'degenerate hull'),
            ('words.txt', '0 0 0\n1 0 0\n0 x 1\n', 'words.txt:3:'),
            ('two.txt', '0 0 0\n1 0\n', 'two.txt:2: expected 3 coordinates'),
            ('inf.txt', '0 0 0\n1e999 0 0\n', 'inf.txt:2:'),
            ('nan.txt', '0 0 0\nnan 0 0\n', 'nan.txt:2:'),
            ('empty.obj', '# nothing\nf 1 2 3\n', 'no points'),
            ('bad.obj', 'v 0 0 0\nv 1 zero 0\n', 'bad.obj:2:'),
        ]
        for name, text, message in cases:
            path = write(os.path.join(tmp, name), text)
            code, out, err = manyfold('hull', path)
            expect(code == 1 and message in err and err.count('\n') == 1,
                   'hull %s: exit %d, expected 1 with %r in one line: %r' % (name, code, message, err))
        code, out, err = manyfold('hull', os.path.join(tmp, 'missing.obj'))
        expect(code == 1 and 'missing.obj: cannot open' in err, 'missing file: %r' % err)


# ---- simulate and the up axis ----

# The README's example program as a scene: a crate on a floor, stacked along +z (the default up).
README_PROGRAM_SCENE = ('{"shapes": [{"name": "crate", "box": [0.5, 0.5, 0.5]}, {"name": "floor", "box": [10, 10, 0.5]}],\n'
                        ' "bodies": [{"shape": "floor", "position": [0, 0, 0]},\n'
                        '            {"shape": "crate", "position": [0, 0, 0.99]}]}\n')


def simulate(*args):
    """Runs manyfold simulate; None where ODE is not built into the program."""
    result = manyfold('simulate', *args)
    if result[0] == 1 and 'is not built into this program' in result[2]:
        print('ODE is not built in; nothing to simulate')
        return None
    return result


def expect_settled(result, what, bodies, moving):
    code, out, err = result
    expect(code == 0, '%s: exit %d: %s%s' % (what, code, out, err))
    expect(': %d bodies, %d moving;' % (bodies, moving) in out, '%s: the ground found: %s' % (what, out))
    expect(report_field(out, 'escaped') == '0', '%s: bodies escaped: %s' % (what, out))
    speed = float(re.search(r'^speed\s+\S+ mm/s mean, (\S+) mm/s largest', out, re.M).group(1))
    expect(speed < 50, '%s: still moving at %g mm/s after the run: %s' % (what, speed, out))


def test_simulate_the_readme_program_along_z():
    with tempfile.TemporaryDirectory() as tmp:
        path = write(os.path.join(tmp, 'program.json'), README_PROGRAM_SCENE)
        for engine in ('ode', 'bullet'):
            result = simulate(path, '--engine', engine, '--seconds', 2)
            if result is None or (result[0] == 1 and 'not built' in result[2]):
                continue
            expect_settled(result, 'the README program in ' + engine, 2, 1)


def test_simulate_the_scenes_readme_example():
    with open(os.path.join(ARGS.scenes, 'README.md')) as f:
        example = re.search(r'```json\n(.*?)```', f.read(), re.S).group(1)
    mesh = os.path.join(os.path.abspath(ARGS.scenes), 'meshes', 'bunny.obj')
    with tempfile.TemporaryDirectory() as tmp:
        path = write(os.path.join(tmp, 'example.json'), example.replace('meshes/bunny.obj', mesh))
        result = simulate(path, '--seconds', 2)
        if result is not None:
            expect_settled(result, 'the scenes README\'s example', 3, 2)


def test_simulate_shipped_bunnies():
    result = simulate(scene_path('bunnies'), '--seconds', 2)
    if result is not None:
        expect_settled(result, 'bunnies.json', 7, 6)


def test_shipped_scenes_say_up_is_z():
    for name in SCENE_NAMES:
        with open(scene_path(name)) as f:
            expect(json.load(f).get('up') == 'z', '%s should say "up": "z"' % name)


def test_simulate_up_option_overrides_the_scene():
    with tempfile.TemporaryDirectory() as tmp:
        path = write(os.path.join(tmp, 'program.json'), README_PROGRAM_SCENE)
        result = simulate(path, '--up', 'y', '--seconds', 1)
        if result is None:
            return
        code, out, err = result
        expect(code == 1 and err.count('\n') == 1 and 'found no ground below the bodies along -y' in err,
               'along -y the README program has no ground: exit %d, %r' % (code, err))
        # The same bodies turned to stand along +y, which the file says.
        turned = README_PROGRAM_SCENE.replace('[10, 10, 0.5]', '[10, 0.5, 10]').replace('[0, 0, 0.99]', '[0, 0.99, 0]')
        turned = turned.replace('{"shapes"', '{"up": "y", "shapes"')
        y_path = write(os.path.join(tmp, 'turned.json'), turned)
        expect_settled(simulate(y_path, '--seconds', 2), '"up": "y"', 2, 1)
        code, out, err = simulate(y_path, '--seconds', 1, '--up', 'z')
        expect(code == 1 and 'found no ground below the bodies along -z' in err, '--up z on a y-up scene: %r' % err)
        code, out, err = manyfold('simulate', path, '--up', 'w')
        expect(code == 2 and "--up wants x, y or z, not 'w'" in err, '--up w: exit %d, %r' % (code, err))


def test_simulate_builtin_scenes_stay_along_y():
    result = simulate('box', '--seconds', 1)
    if result is not None:
        expect_settled(result, 'box', 2, 1)


def test_simulate_frames_and_plot():
    with tempfile.TemporaryDirectory() as tmp:
        frames, plot = os.path.join(tmp, 'frames'), os.path.join(tmp, 'plot.svg')
        result = simulate(scene_path('box_stack'), '--seconds', 0.2, '--frames', frames, '--plot', plot)
        if result is None:
            return
        expect(result[0] == 0, 'simulate --frames --plot: %s%s' % (result[1], result[2]))
        expect(report_field(result[1], 'frames') == '7', 'frames at 0, 1/30, ... 0.2 s: %s' % result[1])
        expect(png_size(os.path.join(frames, 'frame_00006.png')) == (800, 600), 'the last frame')
        expect(ElementTree.parse(plot).getroot().tag.endswith('svg'), 'the plot is an SVG')


def test_render_takes_the_scenes_up_axis():
    with open(scene_path('box_stack')) as f:
        scene = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        pictures = []
        for up, option in (('y', []), (None, ['--up', 'y'])):
            if up is None:
                scene.pop('up')
            else:
                scene['up'] = up
            path = write(os.path.join(tmp, 'stack.json'), json.dumps(scene))
            out_path = os.path.join(tmp, 'stack%d.png' % len(pictures))
            expect_exit(manyfold('render', path, '-o', out_path, '--size', '200x150', *option), 0, 'render')
            with open(out_path, 'rb') as f:
                pictures.append(f.read())
        expect(pictures[0] == pictures[1], '"up": "y" should draw as --up y does')


def test_render_refuses_another_scenes_manifolds():
    with tempfile.TemporaryDirectory() as tmp:
        manifolds = os.path.join(tmp, 'rocks.jsonl')
        expect_exit(manyfold('run', scene_path('rock_pile'), '--out', manifolds), 0, 'run --out')
        for other in ('box_stack', 'bunnies'):
            code, out, err = manyfold('render', scene_path(other), '--manifolds', manifolds, '-o',
                                      os.path.join(tmp, 'x.png'))
            expect(code == 1 and err.count('\n') == 1 and manifolds in err and
                   ("these manifolds are another scene's" in err or "are not %s's" % scene_path(other) in err),
                   'render %s with rock_pile\'s manifolds: exit %d, %r' % (other, code, err))
        # As many bodies, moved: the contacts would hang in mid-air.
        with open(scene_path('rock_pile')) as f:
            scene = json.load(f)
        for body in scene['bodies'][1:]:
            body['position'][0] += 2
        moved = write(os.path.join(tmp, 'moved.json'), json.dumps(scene))
        code, out, err = manyfold('render', moved, '--manifolds', manifolds, '-o', os.path.join(tmp, 'x.png'))
        expect(code == 1 and err.count('\n') == 1 and "beyond its reach" in err and
               "these manifolds are not %s's" % moved in err, 'moved rocks: exit %d, %r' % (code, err))
        # The scene they came from draws them.
        expect_exit(manyfold('render', scene_path('rock_pile'), '--manifolds', manifolds, '-o',
                             os.path.join(tmp, 'x.png')), 0, 'render rock_pile with its own manifolds')


def test_render_reads_whole_ids_of_older_files():
    with tempfile.TemporaryDirectory() as tmp:
        manifolds = os.path.join(tmp, 'stack.jsonl')
        expect_exit(manyfold('run', scene_path('box_stack'), '--out', manifolds), 0, 'run --out')
        records = check_json_lines(manifolds)
        with open(manifolds, 'w') as f:
            for record in records:
                for contact in record['contacts']:
                    contact['id'] = contact['id'][0] << 16 | contact['id'][1]
                f.write(json.dumps(record) + '\n')
        check_against_library(scene_path('box_stack'), manifolds)


# ---- bad scene files: exit 1 with "FILE:LINE: problem" on one line ----

GOOD_SHAPES = '"shapes": [{"name": "crate", "box": [0.5, 0.5, 0.5]}]'
BAD_SCENES = {
    'malformed_json': ('{\n  "shapes": [\n  ,\n}\n', ':3: malformed JSON'),
    'trailing_text': ('{"shapes": [], "bodies": []}\nextra\n', ':2: malformed JSON'),
    'empty_file': ('\n\n', 'the file is empty'),
    'not_an_object': ('[1, 2, 3]\n', ':1: a scene must be a JSON object'),
    'missing_bodies': ('{\n' + GOOD_SHAPES + '\n}\n', ':1: scene: missing "bodies"'),
    'shapes_not_array': ('{"shapes": {}, "bodies": []}', ':1: "shapes" must be an array, not an object'),
    'unknown_top_key': ('{\n' + GOOD_SHAPES + ',\n "bodys": []\n}\n', ':3: scene: unknown key "bodys"'),
    'missing_position': ('{' + GOOD_SHAPES + ',\n"bodies": [\n  {"shape": "crate"}\n]}\n',
                         ':3: bodies[0]: missing "position"'),
    'position_is_string': ('{' + GOOD_SHAPES + ',\n"bodies": [\n  {"shape": "crate", "position": "0 0 0"}]}',
                           ':3: bodies[0]: "position" must be an array of 3 numbers, not a string'),
    'position_too_short': ('{' + GOOD_SHAPES + ',\n"bodies": [{"shape": "crate", "position": [0, 0]}]}',
                           ':2: bodies[0]: "position" must be an array of 3 numbers, not of 2'),
    'nan_as_string': ('{' + GOOD_SHAPES + ',\n"bodies": [{"shape": "crate",\n "position": ["NaN", 0, 0]}]}',
                      ':3: bodies[0]: "position"[0] must be a number, not a string'),
    'huge_number': ('{' + GOOD_SHAPES + ',\n"bodies": [{"shape": "crate",\n\n "position": [0, 1e999, 0]}]}',
                    ':4: bodies[0]: "position"[1] is not finite'),
    'far_position': ('{' + GOOD_SHAPES + ',\n"bodies": [{"shape": "crate", "position": [0, 0, 3e9]}]}',
                     ':2: bodies[0]: "position"[2] = 3e+09 is outside'),
    'zero_rotation': ('{' + GOOD_SHAPES + ',\n"bodies": [{"shape": "crate", "position": [0, 0, 0],\n'
                      '  "rotation": [0, 0, 0, 0]}]}', ':3: bodies[0]: "rotation" [x, y, z, w] must be a non-zero'),
    'unknown_shape': ('{' + GOOD_SHAPES + ',\n"bodies": [\n{"shape": "crat", "position": [0, 0, 0]}]}',
                      ':3: bodies[0]: unknown shape "crat"'),
    'misspelt_key': ('{' + GOOD_SHAPES + ',\n"bodies": [{"shape": "crate", "position": [0, 0, 0],\n'
                     ' "rotaton": [0, 0, 0, 1]}]}', ':3: bodies[0]: unknown key "rotaton"'),
    'duplicate_shape': ('{"shapes": [\n{"name": "a", "box": [1, 1, 1]},\n{"name": "a", "box": [1, 1, 1]}],\n'
                        '"bodies": []}', ':3: shapes[1]: the name "a" is already used by shapes[0]'),
    'two_kinds': ('{"shapes": [\n{"name": "a", "box": [1, 1, 1], "hull": []}], "bodies": []}',
                  ':2: shape "a": give exactly one of "box", "hull" or "obj" (found 2)'),
    'negative_box': ('{"shapes": [\n{"name": "a", "box": [1, -1, 1]}], "bodies": []}',
                     ':2: shape "a": box half extents must be positive'),
    'flat_hull': ('{"shapes": [{"name": "slab",\n"hull": [[0,0,0],[1,0,0],[0,0,1],[1,0,1]]}], "bodies": []}',
                  ':2: shape "slab": the hull of its points (4 points) cannot be built: degenerate hull'),
    'hull_point_too_short': ('{"shapes": [{"name": "r", "hull": [[0,0,0],\n[1,0,0],\n[0,1]]}], "bodies": []}',
                             ':3: shape "r": hull point 2 must be an array of 3 numbers'),
    'missing_obj': ('{"shapes": [{"name": "m",\n"obj": "no-such-mesh.obj"}], "bodies": []}',
                    ':2: shape "m": ', 'no-such-mesh.obj: cannot open'),
    'bad_obj_line': ('{"shapes": [{"name": "m",\n"obj": "bad.obj"}], "bodies": []}', ':2: shape "m": ',
                     'bad.obj:3: '),
    'max_contacts_too_big': ('{"config": {\n"max_contacts": 9}, ' + GOOD_SHAPES + ', "bodies": []}',
                             ':2: config: "max_contacts" = 9 is outside [1, 8]'),
    'max_contacts_fraction': ('{"config": {"max_contacts": 2.5}, ' + GOOD_SHAPES + ', "bodies": []}',
                              ':1: config: "max_contacts" must be a whole number'),
    'negative_margin': ('{"config": {"margin": -1}, ' + GOOD_SHAPES + ', "bodies": []}',
                        ':1: config: "margin" = -1 is outside'),
    'nul_byte': ('{"shapes": [], "bodies": []}\0', 'a NUL byte'),
    'second_bodies': ('{' + GOOD_SHAPES + ',\n"bodies": [],\n"bodies": [{"shape": "crate", "position": [0, 0, 0]}]}',
                      ':3: scene: "bodies" is given twice (first on line 2); give it once'),
    'second_position': ('{' + GOOD_SHAPES + ',\n"bodies": [{"shape": "crate", "position": [0, 0, 0],\n'
                        ' "position": [0, 0, 1]}]}', ':3: bodies[0]: "position" is given twice (first on line 2)'),
    'bad_up': ('{"up": "-z",\n' + GOOD_SHAPES + ', "bodies": []}', ':1: "up" must be "x", "y" or "z", not "-z"'),
    'up_not_string': ('{' + GOOD_SHAPES + ',\n"up": 2, "bodies": []}', ':2: "up" must be "x", "y" or "z", not a number'),
}


def check_bad_scene(case):
    text, *messages = BAD_SCENES[case]
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, 'bad.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 zero\n')
        path = write(os.path.join(tmp, case + '.json'), text)
        for command in (['run', path], ['render', path, '-o', os.path.join(tmp, 'x.png')]):
            code, out, err = manyfold(*command)
            expect(code == 1, '%s: exit %d, expected 1 (%r)' % (' '.join(command), code, err))
            expect(err.count('\n') == 1, '%s: the message should be one line: %r' % (case, err))
            for message in messages:
                expected = (path + message) if message.startswith(':') else message
                expect(expected in err, '%s: expected %r in %r' % (case, expected, err))


def test_unreadable_scene_exits_1():
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = manyfold('run', os.path.join(tmp, 'absent.json'))
        expect(code == 1 and 'absent.json: cannot open: ' in err, 'missing file: %r' % err)
        code, out, err = manyfold('run', tmp)  # a directory opens but cannot be read
        expect(code == 1 and tmp + ': cannot read' in err, 'directory: %r' % err)


for _case in BAD_SCENES:
    globals()['test_bad_scene_' + _case] = (lambda case: lambda: check_bad_scene(case))(_case)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument('--manyfold')
    parser.add_argument('--checker')
    parser.add_argument('--scenes')
    parser.add_argument('--list', action='store_true')
    parser.add_argument('cases', nargs='*')
    ARGS = parser.parse_args()
    names = sorted(n[len('test_'):] for n in globals() if n.startswith('test_'))
    if ARGS.list:
        print('\n'.join(names))
        return 0
    failed = 0
    for case in ARGS.cases or names:
        try:
            globals()['test_' + case]()
            print('ok   %s' % case)
        except Failure as failure:
            print('FAIL %s: %s' % (case, failure))
            failed += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
