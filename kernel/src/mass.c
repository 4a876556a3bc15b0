// Mass properties: a polyhedron's volume integrals (the divergence theorem over its face triangles,
// in double), and mf_bank_shape_mass's mass, centre, inertia tensor and principal axes from them.
#include "mass.h"

#include "bank.h"
#include "vec.h"

#include <math.h>
#include <stddef.h>

// The volume integrals by the divergence theorem (Mirtich 1996, "Fast and Accurate Computation of
// Polyhedral Mass Properties"; Eberly, "Polyhedral Mass Properties"). For f homogeneous of degree
// d, the integral of f over the solid is 1/(d + 3) times the sum over the faces of (n . x) times
// the integral of f over the face; n . x is constant on a flat face, so each face triangle's term
// is the integral of f over the tetrahedron from the origin to it, signed by the triangle's
// orientation. For the tetrahedron (0, a, b, c), with D = a . (b x c) and s = a + b + c:
//   integral of 1 = D / 6,  of x = D s / 24,  of x x^T = D (a a^T + b b^T + c c^T + s s^T) / 120.
// Steps: the origin is the vertex average, near the centre, so that moving the second moments to
// the centre (the parallel-axis rule) cancels few digits; each face is fanned from its first vertex;
// the sums are scaled once at the end.
mf_solid mf_solid_of(const mf_vec3 *vertices, uint32_t vertex_count, const uint16_t *loops, const uint16_t *loop_counts,
                     uint32_t face_count)
{
    double origin[3] = {0.0, 0.0, 0.0};
    for (uint32_t i = 0; i < vertex_count; ++i) {
        origin[0] += vertices[i].x;
        origin[1] += vertices[i].y;
        origin[2] += vertices[i].z;
    }
    for (int i = 0; i < 3; ++i) origin[i] /= (double)vertex_count;

    double six_volume = 0.0, first[3] = {0.0, 0.0, 0.0}, second[3][3] = {{0.0}};
    uint32_t at = 0;
    for (uint32_t f = 0; f < face_count; ++f) {
        const uint16_t *loop = loops + at;
        mf_vec3 corner = vertices[loop[0]];
        const double a[3] = {corner.x - origin[0], corner.y - origin[1], corner.z - origin[2]};
        for (uint32_t k = 1; k + 1 < loop_counts[f]; ++k) {
            mf_vec3 p = vertices[loop[k]], q = vertices[loop[k + 1]];
            const double b[3] = {p.x - origin[0], p.y - origin[1], p.z - origin[2]};
            const double c[3] = {q.x - origin[0], q.y - origin[1], q.z - origin[2]};
            double d = a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
                       a[2] * (b[0] * c[1] - b[1] * c[0]);
            const double s[3] = {a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]};
            six_volume += d;
            for (int i = 0; i < 3; ++i) {
                first[i] += d * s[i];
                for (int j = i; j < 3; ++j) second[i][j] += d * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j]);
            }
        }
        at += loop_counts[f];
    }

    mf_solid solid = {.volume = six_volume / 6.0};
    double offset[3]; // the centre from the origin
    for (int i = 0; i < 3; ++i) {
        offset[i] = first[i] / (4.0 * six_volume);
        solid.center[i] = origin[i] + offset[i];
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = i; j < 3; ++j) {
            solid.covariance[i][j] = second[i][j] / 120.0 - solid.volume * offset[i] * offset[j];
            solid.covariance[j][i] = solid.covariance[i][j];
        }
    }
    return solid;
}

// One Jacobi rotation in the (p, q) plane: a <- J^T a J and vectors <- vectors J, where J is the
// identity but for J[p][p] = J[q][q] = c, J[p][q] = s, J[q][p] = -s.
static void jacobi_rotate(double a[3][3], double vectors[3][3], int p, int q, double c, double s)
{
    for (int k = 0; k < 3; ++k) { // a J: columns p and q
        double akp = a[k][p], akq = a[k][q];
        a[k][p] = c * akp - s * akq;
        a[k][q] = s * akp + c * akq;
    }
    for (int k = 0; k < 3; ++k) { // J^T (a J): rows p and q
        double apk = a[p][k], aqk = a[q][k];
        a[p][k] = c * apk - s * aqk;
        a[q][k] = s * apk + c * aqk;
    }
    for (int k = 0; k < 3; ++k) {
        double vkp = vectors[k][p], vkq = vectors[k][q];
        vectors[k][p] = c * vkp - s * vkq;
        vectors[k][q] = s * vkp + c * vkq;
    }
    a[p][q] = a[q][p] = 0.0; // what the rotation was chosen for; the products leave rounding
}

// The eigen-decomposition of a symmetric 3x3 matrix by the cyclic Jacobi method (Golub and Van
// Loan, "Matrix Computations", section 8.5): sweep over the off-diagonal entries (0,1), (0,2),
// (1,2), turning each to zero by a rotation in its plane, until a sweep finds all of them noise.
// The angle is the smaller of the two that zero a[p][q]: with theta = (a[q][q] - a[p][p]) /
// (2 a[p][q]), t = tan = sign(theta) / (|theta| + sqrt(theta^2 + 1)), which keeps the turn within
// 45 degrees and the update stable. On return a is diagonal (the eigenvalues) and the columns of
// vectors are the eigenvectors: input = vectors diag(a) vectors^T.
static void jacobi_eigen(double a[3][3], double vectors[3][3])
{
    double norm = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            norm += a[i][j] * a[i][j];
            vectors[i][j] = i == j ? 1.0 : 0.0;
        }
    }
    norm = sqrt(norm);
    for (int sweep = 0; sweep < MF_JACOBI_SWEEPS; ++sweep) {
        int turned = 0;
        for (int p = 0; p < 2; ++p) {
            for (int q = p + 1; q < 3; ++q) {
                if (!(fabs(a[p][q]) > MF_INERTIA_NOISE * norm)) {
                    a[p][q] = a[q][p] = 0.0;
                    continue;
                }
                double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0);
                jacobi_rotate(a, vectors, p, q, c, t * c);
                turned = 1;
            }
        }
        if (!turned) break;
    }
}

// The unit quaternion of a rotation matrix (det +1), w >= 0. Shepperd's method: of 4 w^2, 4 x^2,
// 4 y^2 and 4 z^2, each a sum of the trace and the diagonal, the largest gives its component by a
// square root far from zero and the others by the off-diagonal sums and differences divided by it.
static mf_quat quat_from_rotation(double r[3][3])
{
    double trace = r[0][0] + r[1][1] + r[2][2];
    double q[4]; // x, y, z, w
    if (trace >= r[0][0] && trace >= r[1][1] && trace >= r[2][2]) {
        double w4 = 2.0 * sqrt(1.0 + trace); // 4 w
        q[3] = 0.25 * w4;
        q[0] = (r[2][1] - r[1][2]) / w4;
        q[1] = (r[0][2] - r[2][0]) / w4;
        q[2] = (r[1][0] - r[0][1]) / w4;
    } else if (r[0][0] >= r[1][1] && r[0][0] >= r[2][2]) {
        double x4 = 2.0 * sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]);
        q[0] = 0.25 * x4;
        q[1] = (r[0][1] + r[1][0]) / x4;
        q[2] = (r[0][2] + r[2][0]) / x4;
        q[3] = (r[2][1] - r[1][2]) / x4;
    } else if (r[1][1] >= r[2][2]) {
        double y4 = 2.0 * sqrt(1.0 - r[0][0] + r[1][1] - r[2][2]);
        q[1] = 0.25 * y4;
        q[0] = (r[0][1] + r[1][0]) / y4;
        q[2] = (r[1][2] + r[2][1]) / y4;
        q[3] = (r[0][2] - r[2][0]) / y4;
    } else {
        double z4 = 2.0 * sqrt(1.0 - r[0][0] - r[1][1] + r[2][2]);
        q[2] = 0.25 * z4;
        q[0] = (r[0][2] + r[2][0]) / z4;
        q[1] = (r[1][2] + r[2][1]) / z4;
        q[3] = (r[1][0] - r[0][1]) / z4;
    }
    double length = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double sign = q[3] < 0.0 ? -1.0 : 1.0; // q and -q are one rotation: give the one with w >= 0
    double scale = sign / length;
    return (mf_quat){(float)(q[0] * scale), (float)(q[1] * scale), (float)(q[2] * scale), (float)(q[3] * scale)};
}

// The principal moments of an inertia tensor, ascending, and the rotation whose matrix has their
// axes as columns: the eigenvectors in the moments' order, the last negated where they would form
// a left-handed frame (an eigenvector's sign is free), so that the matrix is a proper rotation.
static mf_quat principal_axes(double inertia[3][3], double moments[3])
{
    double a[3][3], vectors[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) a[i][j] = inertia[i][j];
    jacobi_eigen(a, vectors);
    int order[3] = {0, 1, 2};
    for (int i = 1; i < 3; ++i) { // insertion sort: stable, so tied moments keep Jacobi's order
        for (int k = i; k > 0 && a[order[k]][order[k]] < a[order[k - 1]][order[k - 1]]; --k) {
            int swap = order[k];
            order[k] = order[k - 1];
            order[k - 1] = swap;
        }
    }
    double r[3][3];
    for (int k = 0; k < 3; ++k) {
        moments[k] = a[order[k]][order[k]];
        for (int i = 0; i < 3; ++i) r[i][k] = vectors[i][order[k]];
    }
    double det = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
                 r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
    if (det < 0.0)
        for (int i = 0; i < 3; ++i) r[i][2] = -r[i][2];
    return quat_from_rotation(r);
}

mf_status mf_bank_shape_mass(const mf_bank *bank, mf_shape_id shape, float density, mf_mass *mass)
{
    if (bank == NULL || mass == NULL || !mf_bank_has_shape(bank, shape)) return MF_ERR_INVALID_ARGUMENT;
    if (!isfinite(density)) return MF_ERR_NONFINITE;
    if (!(density > 0.0f)) return MF_ERR_INVALID_ARGUMENT;

    // The vertices and loops the bank's volume and centroid came from, so the same solid: the bank
    // keeps a shape's face loops back to back in face order, as the builder gave them.
    mf_hull_view hull = mf_bank_view(bank, shape);
    mf_vec3 vertices[MF_MAX_HULL_VERTICES];
    for (uint32_t i = 0; i < hull.vertex_count; ++i) vertices[i] = mf_view_vertex(&hull, i);
    mf_solid solid = mf_solid_of(vertices, hull.vertex_count, hull.loop_vertex, hull.face_loop_count, hull.face_count);

    // Of density 1 first, so that the principal axes do not depend on the density.
    double inertia[3][3], moments[3];
    double trace = solid.covariance[0][0] + solid.covariance[1][1] + solid.covariance[2][2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) inertia[i][j] = (i == j ? trace : 0.0) - solid.covariance[i][j];
    mf_quat rotation = principal_axes(inertia, moments);

    mf_mass out = {
        .mass = (float)(density * solid.volume),
        .center = mf_solid_center(&solid),
        .principal = {(float)(density * moments[0]), (float)(density * moments[1]), (float)(density * moments[2])},
        .principal_rotation = rotation,
    };
    int finite = isfinite(out.mass) && mf_is_finite3(out.principal);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            out.inertia[3 * i + j] = (float)(density * inertia[i][j]);
            finite &= isfinite(out.inertia[3 * i + j]) != 0;
        }
    }
    if (!finite) return MF_ERR_NONFINITE; // a solid so large and dense that float cannot hold it
    *mass = out;
    return MF_OK;
}
