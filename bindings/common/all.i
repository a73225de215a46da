/* Every public header the bindings cover, one %include each. To bind a new
 * header, write bindings/common/<name>.i in the style of
 * the others and add one line here: both languages pick it up. */
%include "base.i"
%include "flownet.i"
%include "topology.i"
%include "job.i"
%include "interference.i"
%include "policy.i"
%include "sched.i"
%include "sim.i"
