// The settings every back end starts from (sim_engine.h).
#include "sim_engine.h"

sim_settings sim_settings_default(void)
{
    return (sim_settings){.step = 1.0 / 60.0,
                          .gravity = 9.81,
                          .density = 1000.0,
                          .friction = 0.6,
                          .max_contacts = 0,
                          .narrowphase = SIM_NARROWPHASE_MANYFOLD,
                          .uncached = 0};
}
