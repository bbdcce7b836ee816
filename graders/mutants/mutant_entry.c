/* mutant_entry.c: one mutant plugin's entry point. AWB_MUTANT is its mistake's number and
 * AWB_MUTANT_ID its plugin id; the kernel is the shared body in mutant.cpp. */
#include <awb/awb_plugin.h>

const awb_plugin_descriptor* awb_mutant_entry(int mistake, const char* id);

AWB_EXPORT const awb_plugin_descriptor* awb_plugin_entry(void) {
  return awb_mutant_entry(AWB_MUTANT, AWB_MUTANT_ID);
}
