// A local declared without a storage class is varying (RISpec 11.7),
// even when every value it is given is uniform.
light test(point from = point "shader" (0, 0, -20), to = 0;)
{
    uniform vector dir = vector(0, 0, 1);
    vector path = from - to;
    dir *= sign(path . dir);
    solar(-path, 0) {
        Cl = 1;
    }
}

/* EXPECT
105_varying_local_into_uniform.sl:7:5: error: cannot assign varying value to uniform variable 'dir'
    dir *= sign(path . dir);
    ^
105_varying_local_into_uniform.sl:6:12: note: 'path' is varying: a local variable declared without 'uniform' is varying
    vector path = from - to;
           ^
*/
