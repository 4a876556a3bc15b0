// Growing arrays of manifolds and contacts.
#include "manifold_list.h"

#include <stdlib.h>

static bool reserve(void **array, size_t *capacity, size_t needed, size_t element_size)
{
    if (needed <= *capacity) return true;
    size_t grown_capacity = *capacity < 256 ? 256 : *capacity;
    while (grown_capacity < needed) grown_capacity *= 2;
    void *grown = realloc(*array, grown_capacity * element_size);
    if (grown == NULL) return false;
    *array = grown;
    *capacity = grown_capacity;
    return true;
}

listed_manifold *manifold_list_push(manifold_list *list, uint32_t contact_count, mf_contact **contacts)
{
    if (!reserve((void **)&list->manifolds, &list->manifold_capacity, list->manifold_count + 1,
                 sizeof(listed_manifold)) ||
        !reserve((void **)&list->contacts, &list->contact_capacity, list->contact_count + contact_count,
                 sizeof(mf_contact)))
        return NULL;
    listed_manifold *m = &list->manifolds[list->manifold_count++];
    *m = (listed_manifold){.first = (uint32_t)list->contact_count, .count = contact_count};
    *contacts = list->contacts + list->contact_count;
    list->contact_count += contact_count;
    return m;
}

bool manifold_list_append_stream(manifold_list *list, uint32_t step, const mf_pair *pairs, uint32_t pair_offset,
                                 const mf_stream *stream)
{
    for (uint32_t i = 0; i < stream->manifold_count; ++i) {
        const mf_manifold *source = &stream->manifolds[i];
        mf_contact *contacts;
        listed_manifold *m = manifold_list_push(list, source->count, &contacts);
        if (m == NULL) return false;
        uint32_t pair = pair_offset + source->pair;
        m->step = step;
        m->pair = pair;
        m->a = pairs[pair].a;
        m->b = pairs[pair].b;
        m->normal = source->normal;
        for (uint32_t k = 0; k < source->count; ++k) contacts[k] = stream->contacts[source->first + k];
    }
    return true;
}

void manifold_list_free(manifold_list *list)
{
    free(list->manifolds);
    free(list->contacts);
    *list = (manifold_list){0};
}
