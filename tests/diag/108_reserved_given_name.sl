/* A parameter named as rslc's hidden flag for the computed default of
   "to" (found by the front-end fuzzer: it made a second parameter of the
   same name). */
light rim(
    point from = point "shader" (0, 0, 0);
    point to = point "shader" (0, 0, 1);
    string __given_to = "rim";)
{
    illuminate(from) {
        Cl = 1;
    }
}

/* EXPECT
108_reserved_given_name.sl:7:12: error: shader parameter '__given_to': names beginning with '__given_' are reserved for rslc's own parameters
    string __given_to = "rim";)
           ^
*/
