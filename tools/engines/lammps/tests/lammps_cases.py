#!/usr/bin/env python3
"""The LAMMPS styles' tests, each a LAMMPS run (serially or under mpirun) and checks of what it
printed. Every input prints its figures as 'RESULT name value' lines.

    lammps_cases.py --lmp build/tools/engines/lammps/manyfold-lmp [--ranks N] CASE

Exit 0 when the case holds; otherwise the figures, the bounds they missed and the run's output."""
import argparse
import math
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
MAKE_ROCKS = HERE.parent / "examples" / "make_rocks.py"

# One 0.1 m cube (2.5 kg at 2500 kg/m^3) and a flat plate, for the box cases.
BOXES = '{"shapes": [{"name": "cube", "box": [0.05, 0.05, 0.05]}, {"name": "plate", "box": [0.2, 0.2, 0.02]}], "bodies": []}'
KN = 1.0e5
DENSITY = 2500.0
G = 9.81

PREAMBLE = """units si
atom_style sphere
atom_modify map array
boundary {boundary}
comm_modify vel yes
newton on
processors * * 1
region domain block {domain}
create_box 1 domain
fix prop all property/atom i_shape d2_quat 4 d2_angmom 3 ghost yes
"""

LAW = f"hooke {KN} NULL 200 NULL 0.5"


class Run:
    def __init__(self, args, workdir):
        self.args = args
        self.workdir = workdir

    def lammps(self, script, ranks=None, name="in.lmp", expect_failure=False, variables=()):
        ranks = self.args.ranks if ranks is None else ranks
        path = self.workdir / name
        path.write_text(script)
        command = [self.args.lmp, "-in", name, "-log", "none", "-echo", "none"]
        for key, value in variables:
            command += ["-var", key, str(value)]
        if ranks > 1:
            command = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(ranks)] + command
        done = subprocess.run(command, cwd=self.workdir, capture_output=True, text=True, timeout=900)
        output = done.stdout + done.stderr
        if expect_failure:
            return done.returncode, output
        if done.returncode != 0:
            fail(f"manyfold-lmp exited with {done.returncode}", output)
        return results(output), output


def results(output):
    found = {}
    for line in output.splitlines():
        match = re.match(r"^RESULT (\S+) (\S+)", line)
        if match:
            found[match.group(1)] = float(match.group(2))
    return found


def thermo_rows(output):
    rows = []
    for line in output.splitlines():
        fields = line.split()
        if len(fields) > 3 and fields[0].isdigit():
            try:
                rows.append([float(x) for x in fields])
            except ValueError:
                pass
    return rows


def fail(message, output=""):
    print("FAIL:", message)
    if output:
        print("---- output ----")
        print(output[-6000:])
    sys.exit(1)


def check(condition, message, output=""):
    if not condition:
        fail(message, output)
    print("ok:", message)


# ---- the cases ----

def box_on_the_floor(run, start_height, steps, extra="", law=LAW):
    script = PREAMBLE.format(boundary="p p f", domain="-0.5 0.5 -0.5 0.5 0 1") + f"""
create_atoms 1 single 0 0 {start_height}
pair_style manyfold shapes.json
pair_coeff * * {law}
neighbor 0.01 bin
fix integrate all nve/manyfold density {DENSITY}
fix walls all wall/manyfold {law} zplane 0 NULL
fix gravity all gravity {G} vector 0 0 -1
timestep 1e-5
variable z equal z[1]
variable speed equal sqrt(vx[1]^2+vy[1]^2+vz[1]^2)
compute turning all property/atom omegax omegay omegaz
variable spin equal sqrt(c_turning[1][1]^2+c_turning[1][2]^2+c_turning[1][3]^2)
variable x equal x[1]
variable y equal y[1]
thermo_style custom step ke v_z v_speed v_spin v_x v_y
thermo 10000
{extra}
run {steps}
print "RESULT z ${{z}}"
print "RESULT x ${{x}}"
print "RESULT y ${{y}}"
print "RESULT speed ${{speed}}"
print "RESULT spin ${{spin}}"
"""
    (run.workdir / "shapes.json").write_text(BOXES)
    return run.lammps(script)


def resting_box_stays_put(run):
    """A cube placed at its resting depth on the floor stays there."""
    mass = DENSITY * 0.1 ** 3
    overlap = mass * G / (4 * KN)
    start = 0.05 - overlap
    found, output = box_on_the_floor(run, repr(start), 20000)
    check(abs(found["z"] - start) < 1e-3 * overlap, f"the cube stays at z {start:.9f} (it is at {found['z']:.9f})", output)
    check(abs(found["x"]) < 1e-9 and abs(found["y"]) < 1e-9, "the cube does not slide", output)
    check(found["speed"] < 1e-6 and found["spin"] < 1e-5, "the cube is still", output)


def dropped_box_rests_at_its_overlap(run):
    """A cube dropped 2 cm onto the floor comes to rest sunk by its weight over four springs."""
    mass = DENSITY * 0.1 ** 3
    overlap = mass * G / (4 * KN)
    found, output = box_on_the_floor(run, 0.07, 60000)
    sunk = 0.05 - found["z"]
    check(abs(sunk - overlap) < 0.01 * overlap,
          f"the cube sinks by m g / (4 kn) = {overlap:.6e} m within 1% (it sinks {sunk:.6e})", output)
    check(found["speed"] < 1e-5, "the cube has come to rest", output)


def dropped_box_rests_at_its_hertz_overlap(run):
    """Under Hertz each of the four corners carries Kn sqrt(R d) d, R the cube's reach (the floor's
    is infinite): the cube sinks by (m g / (4 Kn sqrt(R)))^(2/3)."""
    mass = DENSITY * 0.1 ** 3
    reach = math.sqrt(3.0) * 0.05
    kn = 1e7
    overlap = (mass * G / (4 * kn * math.sqrt(reach))) ** (2.0 / 3.0)
    law = f"hertz {kn} NULL 2e5 NULL 0.5"  # damping scales with sqrt(R d) too
    found, output = box_on_the_floor(run, 0.07, 60000, law=law)
    sunk = 0.05 - found["z"]
    check(abs(sunk - overlap) < 0.01 * overlap,
          f"the cube sinks by (m g / (4 Kn sqrt(R)))^(2/3) = {overlap:.6e} m within 1% (it sinks {sunk:.6e})", output)
    check(found["speed"] < 1e-5, "the cube has come to rest", output)


def stacked_boxes_rest_at_their_overlaps(run):
    """A cube on a plate on the floor: each contact sinks by the weight it carries over four springs."""
    (run.workdir / "shapes.json").write_text(BOXES)
    mass_cube = DENSITY * 0.1 ** 3
    mass_plate = DENSITY * 0.4 * 0.4 * 0.04
    script = PREAMBLE.format(boundary="p p f", domain="-0.5 0.5 -0.5 0.5 0 1") + f"""
create_atoms 1 single 0 0 0.025
create_atoms 1 single 0.01 -0.01 0.1
set atom 1 i_shape 1
set atom 2 i_shape 0
pair_style manyfold shapes.json
pair_coeff * * {LAW}
neighbor 0.01 bin
fix integrate all nve/manyfold density {DENSITY}
fix walls all wall/manyfold {LAW} zplane 0 NULL
fix gravity all gravity {G} vector 0 0 -1
compute contacts all contact/manyfold
thermo_style custom step ke c_contacts[3] c_contacts[4]
thermo 10000
timestep 1e-5
run 60000
variable plate equal z[1]
variable cube equal z[2]
variable points equal c_contacts[4]
print "RESULT plate ${{plate}}"
print "RESULT cube ${{cube}}"
print "RESULT points ${{points}}"
"""
    found, output = run.lammps(script)
    cube_on_plate = mass_cube * G / (4 * KN)
    plate_on_floor = (mass_cube + mass_plate) * G / (4 * KN)
    sunk_plate = 0.02 - found["plate"]
    sunk_cube = (found["plate"] + 0.02 + 0.05) - found["cube"]
    check(found["points"] == 4, "the cube touches the plate at four points", output)
    check(abs(sunk_plate - plate_on_floor) < 0.01 * plate_on_floor,
          f"the plate sinks into the floor by {plate_on_floor:.6e} within 1% ({sunk_plate:.6e})", output)
    check(abs(sunk_cube - cube_on_plate) < 0.01 * cube_on_plate,
          f"the cube sinks into the plate by {cube_on_plate:.6e} within 1% ({sunk_cube:.6e})", output)


def colliding_boxes_conserve_momentum(run):
    """Two cubes, turned and off centre, meet in empty space: linear and angular momentum stay."""
    (run.workdir / "shapes.json").write_text(BOXES)
    script = PREAMBLE.format(boundary="f f f", domain="-1 1 -1 1 -1 1") + f"""
create_atoms 1 single -0.2 0.02 0.01
create_atoms 1 single 0.2 -0.03 0.0
set atom 2 d2_quat[1] 0.9238795 d2_quat[2] 0.0 d2_quat[3] 0.3826834 d2_quat[4] 0.0
velocity all set 0 0 0
set atom 1 vx 2.0
set atom 2 vx -1.0
set atom 2 vy 0.3
pair_style manyfold shapes.json
pair_coeff * * hooke 1e6 NULL 100 NULL 0.4
neighbor 0.01 bin
fix integrate all nve/manyfold density {DENSITY}
compute contacts all contact/manyfold
timestep 1e-6
variable px equal mass[1]*vx[1]+mass[2]*vx[2]
variable py equal mass[1]*vy[1]+mass[2]*vy[2]
variable pz equal mass[1]*vz[1]+mass[2]*vz[2]
compute spin all property/atom d2_angmom[1] d2_angmom[2] d2_angmom[3]
# angular momentum about the origin: the centres' r x m v plus each body's own (d2_angmom)
variable lx equal mass[1]*(y[1]*vz[1]-z[1]*vy[1])+mass[2]*(y[2]*vz[2]-z[2]*vy[2])+c_spin[1][1]+c_spin[2][1]
variable ly equal mass[1]*(z[1]*vx[1]-x[1]*vz[1])+mass[2]*(z[2]*vx[2]-x[2]*vz[2])+c_spin[1][2]+c_spin[2][2]
variable lz equal mass[1]*(x[1]*vy[1]-y[1]*vx[1])+mass[2]*(x[2]*vy[2]-y[2]*vx[2])+c_spin[1][3]+c_spin[2][3]
thermo_style custom step ke c_contacts[3] v_px v_py v_pz v_lx v_ly v_lz
thermo 10000
run 0
print "RESULT px0 ${{px}}"
print "RESULT py0 ${{py}}"
print "RESULT pz0 ${{pz}}"
print "RESULT lx0 ${{lx}}"
print "RESULT ly0 ${{ly}}"
print "RESULT lz0 ${{lz}}"
variable touched equal c_contacts[3]
fix most all ave/time 1 1 1 v_touched
run 200000
print "RESULT px1 ${{px}}"
print "RESULT py1 ${{py}}"
print "RESULT pz1 ${{pz}}"
print "RESULT lx1 ${{lx}}"
print "RESULT ly1 ${{ly}}"
print "RESULT lz1 ${{lz}}"
variable v1 equal vx[1]
variable v2 equal vx[2]
print "RESULT v1 ${{v1}}"
print "RESULT v2 ${{v2}}"
"""
    found, output = run.lammps(script)
    momentum = math.sqrt(found["px0"] ** 2 + found["py0"] ** 2 + found["pz0"] ** 2)
    spin = math.sqrt(found["lx0"] ** 2 + found["ly0"] ** 2 + found["lz0"] ** 2)
    check(found["v1"] < 1.9 and found["v2"] > -0.9, "the cubes met and pushed each other back", output)
    for axis in "xyz":
        check(abs(found[f"p{axis}1"] - found[f"p{axis}0"]) < 1e-9 * momentum,
              f"momentum along {axis} stays ({found[f'p{axis}0']:.12g} -> {found[f'p{axis}1']:.12g})", output)
        check(abs(found[f"l{axis}1"] - found[f"l{axis}0"]) < 1e-6 * spin,
              f"angular momentum along {axis} stays ({found[f'l{axis}0']:.12g} -> {found[f'l{axis}1']:.12g})", output)


def pushed_box_holds_by_static_friction(run):
    """A cube on a plate on the floor, pushed sideways with a third of what friction holds: the
    tangential springs, kept per contact from step to step by feature id, hold it after a shift of
    about F / (4 kt); springs that were forgotten would let it creep on."""
    (run.workdir / "shapes.json").write_text(BOXES)
    mass_cube = DENSITY * 0.1 ** 3
    push = mass_cube * G * 0.5 / 3.0  # mu = 0.5
    kt = KN * 2.0 / 7.0
    script = PREAMBLE.format(boundary="p p f", domain="-0.5 0.5 -0.5 0.5 0 1") + f"""
create_atoms 1 single 0 0 0.0199
create_atoms 1 single 0 0 0.0897
set atom 1 i_shape 1
set atom 2 i_shape 0
pair_style manyfold shapes.json
pair_coeff * * {LAW}
neighbor 0.01 bin
fix integrate all nve/manyfold density {DENSITY}
fix walls all wall/manyfold {LAW} zplane 0 NULL
fix gravity all gravity {G} vector 0 0 -1
group cube id 2
timestep 1e-5
variable shift equal x[2]-x[1]
variable creep equal vx[2]-vx[1]
thermo_style custom step ke v_shift v_creep
thermo 10000
run 20000
variable before equal x[2]-x[1]
print "RESULT before ${{before}}"
fix push cube addforce {push} 0 0
run 30000
print "RESULT middle ${{shift}}"
run 30000
print "RESULT after ${{shift}}"
print "RESULT creep ${{creep}}"
"""
    found, output = run.lammps(script)
    # The cube's centre moves by the springs' shear, F / (4 kt), and by two small tilts under the
    # push's moment: the cube's on its four normal springs (half width a = 0.05 m, centre h = 0.05 m
    # above them) and the plate's on the floor's (half width 0.2 m; the push 0.09 m above the
    # floor, the cube's centre 0.07 m above the plate's).
    shear = push / (4.0 * kt)
    cube_tilt = push * 0.05 / (4.0 * KN * 0.05 ** 2)
    plate_tilt = push * 0.09 / (4.0 * KN * 0.2 ** 2)
    expected = shear + cube_tilt * 0.05 + plate_tilt * 0.07
    moved = found["after"] - found["before"]
    later = found["after"] - found["middle"]
    check(abs(moved - expected) < 0.01 * expected,
          f"the cube shifts by the springs' shear and the tilts, {expected:.4e} m, within 1% ({moved:.4e})", output)
    check(abs(later) < 0.01 * expected, f"and then holds: {later:.2e} m over the last 0.3 s", output)


PILE = """variable every index 1000
units si
atom_style sphere
atom_modify map array
boundary f f f
comm_modify vel yes
newton on
processors * * 1
region domain block 0 0.7 0 0.7 0 1.6
create_box 1 domain
fix prop all property/atom i_shape d2_quat 4 d2_angmom 3 ghost yes
lattice sc 0.1 origin 0.5 0.5 0.5
# 6 x 6 rocks a layer, 14 layers: 504 rocks, 10 cm apart.
region fill block 0.04 0.62 0.04 0.62 0.04 1.40 units box
create_atoms 1 region fill
# Each rock's shape from its place (IDs depend on how many ranks made the atoms).
variable shape atom (floor(10*x+1000)*7+floor(10*y+1000)*13+floor(10*z+1000)*29)%100
set group all i_shape v_shape
pair_style manyfold rocks.json
pair_coeff * * hooke 1e5 NULL 500 NULL 0.5
neighbor 0.01 bin
neigh_modify delay 0 every 1 check yes
fix integrate all nve/manyfold density 2600
fix walls all wall/manyfold hooke 1e5 NULL 500 NULL 0.5 xplane 0 0.7 yplane 0 0.7 zplane 0 NULL
fix gravity all gravity 9.81 vector 0 0 -1
compute contacts all contact/manyfold
compute top all reduce max z
compute height all reduce ave z
variable speed atom sqrt(vx*vx+vy*vy+vz*vz)
compute speed all reduce max v_speed
timestep 5e-5
thermo_style custom step atoms ke c_contacts[3] c_contacts[4] c_contacts[5] c_contacts[6] c_top c_speed c_height
thermo_modify norm no format float %.12g
thermo ${every}
"""


def make_rocks(run):
    subprocess.run([sys.executable, str(MAKE_ROCKS), str(run.workdir / "rocks.json"), "--count", "100",
                    "--size", "0.09", "--seed", "7"], check=True)


def settle_pile(run, ranks):
    script = PILE + """
run 500
run 49500
variable atoms equal atoms
variable ke equal ke
variable top equal c_top
variable height equal c_height
variable fastest equal c_speed
variable touching equal c_contacts[3]
variable manifolds equal c_contacts[2]
variable points equal c_contacts[4]
variable deepest equal c_contacts[6]
variable mean equal c_contacts[5]
print "RESULT atoms ${atoms}"
print "RESULT ke ${ke}"
print "RESULT top ${top}"
print "RESULT height ${height}"
print "RESULT fastest ${fastest}"
print "RESULT touching ${touching}"
print "RESULT manifolds ${manifolds}"
print "RESULT points ${points}"
print "RESULT deepest ${deepest}"
print "RESULT mean ${mean}"
"""
    return run.lammps(script, ranks=ranks, variables=[("every", 100)])


def rock_pile_settles(run):
    """504 rocks of 8-48 points dropped into a box settle: none lost, still, shallow overlaps."""
    make_rocks(run)
    found, output = settle_pile(run, run.args.ranks)
    check(found["atoms"] == 504, "no rock is lost", output)
    check(found["fastest"] < 0.05, f"no rock moves faster than 5 cm/s at the end ({found['fastest']:.3g} m/s)", output)
    check(found["top"] < 0.2, f"the pile has come down (top centre at {found['top']:.3f} m)", output)
    check(found["deepest"] < 5e-4, f"no overlap deeper than 0.5 mm ({found['deepest'] * 1e3:.3f} mm)", output)
    check(found["touching"] > 500, f"the rocks rest on each other ({found['touching']:.0f} touching pairs)", output)


def one_and_two_ranks_agree(run):
    """The same pile on one and on two ranks: the same thermo output step by step to 1e-5 while
    it falls and first lands, and the same settled figures (rocks, packing height, pairs in
    contact) within 2%."""
    make_rocks(run)
    one, output_one = settle_pile(run, 1)
    two, output_two = settle_pile(run, 2)
    rows_one, rows_two = thermo_rows(output_one), thermo_rows(output_two)
    # The first landings come at about step 2000; the rows to step 3000 hold the first contacts.
    early = [(a, b) for a, b in zip(rows_one, rows_two) if a[0] <= 3000]
    check(len(early) > 20 and any(a[3] > 0 for a, _ in early), "the early rows include contacts", output_one)
    for a, b in early:
        for column, (u, v) in enumerate(zip(a, b)):
            if abs(u - v) > 1e-5 * max(abs(u), abs(v), 1e-12):
                fail(f"step {a[0]:.0f}, column {column}: {u} on one rank, {v} on two", output_two)
    print("ok: thermo rows to step 3000 agree to 1e-5")
    # The packing height is the mean height of the rocks' centres: the top rock alone may rest a
    # few centimetres higher or lower when the pile's last moves differ in the last bits.
    # The contact count is the kernel's: pairs with a manifold (nearer than the margin). Pairs that
    # overlap at rest are printed too; a few hundredths of a micron decide them.
    for key in ["atoms", "height", "manifolds"]:
        check(abs(one[key] - two[key]) <= 0.02 * abs(one[key]), f"settled {key} within 2%: {one[key]} and {two[key]}")
    print(f"settled touching pairs: {one['touching']:.0f} and {two['touching']:.0f}; "
          f"contact points: {one['points']:.0f} and {two['points']:.0f}")
    check(one["ke"] < 1e-2 and two["ke"] < 1e-2, f"both have settled (kinetic energy {one['ke']:.3g} and {two['ke']:.3g} J)")


def restart_continues_as_an_uninterrupted_run(run):
    """A pile written to a restart file mid-fall, with contacts, and read back, steps on as the run
    that went on: orientations, angular momenta and contact histories come back."""
    make_rocks(run)
    low_pile = PILE.replace("region fill block 0.04 0.62 0.04 0.62 0.04 1.40", "region fill block 0.04 0.62 0.04 0.62 0.04 0.60")
    through = low_pile + """
thermo 100
run 6000
# run 0 rebuilds the lists before write_restart passes the histories back to the atoms (README)
run 0
write_restart pile.restart
run 1000
"""
    _, output_through = run.lammps(through, name="through.lmp", variables=[("every", 100)])
    resumed = """units si
processors * * 1
read_restart pile.restart
comm_modify vel yes
fix prop all property/atom i_shape d2_quat 4 d2_angmom 3 ghost yes
neighbor 0.01 bin
neigh_modify delay 0 every 1 check yes
fix integrate all nve/manyfold density 2600
fix walls all wall/manyfold hooke 1e5 NULL 500 NULL 0.5 xplane 0 0.7 yplane 0 0.7 zplane 0 NULL
fix gravity all gravity 9.81 vector 0 0 -1
compute contacts all contact/manyfold
compute top all reduce max z
timestep 5e-5
thermo_style custom step atoms ke c_contacts[3] c_contacts[4] c_contacts[5] c_contacts[6] c_top
thermo_modify norm no format float %.12g
thermo 100
run 1000
"""
    _, output_resumed = run.lammps(resumed, name="resumed.lmp")
    after = {row[0]: row for row in thermo_rows(output_through) if row[0] > 6000}
    rows = [row for row in thermo_rows(output_resumed) if row[0] > 6000]
    check(len(rows) == 10 and all(row[0] in after for row in rows), "the resumed run reports steps 6100 to 7000",
          output_resumed)
    check(any(row[3] > 20 for row in rows), "the rocks are in contact after the restart", output_resumed)
    for row in rows:
        for column, (u, v) in enumerate(zip(after[row[0]], row)):
            if abs(u - v) > 1e-9 * max(abs(u), abs(v), 1e-12):
                fail(f"step {row[0]:.0f}, column {column}: {u} run through, {v} resumed", output_resumed)
    print("ok: the resumed rows equal the uninterrupted run's to 1e-9")


def bad_input_is_refused_by_name(run):
    """Bad input stops LAMMPS with a message naming the atom, shape or file: never a crash."""
    (run.workdir / "shapes.json").write_text(BOXES)
    (run.workdir / "broken.json").write_text('{"shapes": [{"name": "flat", "hull": [[0,0,0],[1,0,0],[0,1,0]]}], "bodies": []}')
    base = PREAMBLE.format(boundary="p p f", domain="-0.5 0.5 -0.5 0.5 0 1")
    body = f"""create_atoms 1 single 0 0 0.2
create_atoms 1 single 0 0 0.5
{{setup}}
pair_style manyfold {{library}}
pair_coeff * * {LAW}
fix integrate all nve/manyfold
run 10
"""
    cases = [
        ("an unknown shape index", base, "set atom 2 i_shape 7", "shapes.json", r"Atom 2 has shape 7, but the shape library"),
        ("a library that does not load", base, "", "missing.json", r"cannot load the shape library: missing.json"),
        ("a degenerate shape", base, "", "broken.json", r"broken.json"),
        ("atoms without orientation", base.replace("fix prop all property/atom i_shape d2_quat 4 d2_angmom 3 ghost yes",
                                                   "fix prop all property/atom i_shape ghost yes"),
         "", "shapes.json", r"needs the per-atom property d2_quat 4"),
        ("a cutoff too small", base, "", "shapes.json cutoff 0.1", r"cutoff 0.1 is too small for the largest shape"),
        ("a non-finite quaternion", base, "variable huge atom 1e300*1e300\nset atom 1 d2_quat[1] v_huge", "shapes.json", r"Atom 1 has a non-finite quaternion"),
    ]
    for what, preamble, setup, library, pattern in cases:
        script = preamble + body.format(setup=setup, library=library)
        code, output = run.lammps(script, expect_failure=True, name="bad.lmp")
        check(code != 0 and re.search(pattern, output) is not None and "Segmentation" not in output,
              f"{what}: refused with '{pattern}' (exit {code})", output)


CASES = {f.__name__: f for f in [resting_box_stays_put, dropped_box_rests_at_its_overlap,
                                  dropped_box_rests_at_its_hertz_overlap,
                                  stacked_boxes_rest_at_their_overlaps, colliding_boxes_conserve_momentum,
                                  pushed_box_holds_by_static_friction,
                                  rock_pile_settles, one_and_two_ranks_agree,
                                  restart_continues_as_an_uninterrupted_run, bad_input_is_refused_by_name]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lmp", required=True)
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("case", choices=sorted(CASES) + ["--list"])
    args = parser.parse_args()
    args.lmp = os.path.abspath(args.lmp)
    keep = os.environ.get("MANYFOLD_LAMMPS_KEEP")
    if keep:
        os.makedirs(keep, exist_ok=True)
        CASES[args.case](Run(args, pathlib.Path(keep)))
        print("PASS:", args.case, f"on {args.ranks} rank(s)")
        return
    with tempfile.TemporaryDirectory(prefix="manyfold-lammps-") as directory:
        CASES[args.case](Run(args, pathlib.Path(directory)))
    print("PASS:", args.case, f"on {args.ranks} rank(s)")


if __name__ == "__main__":
    main()
