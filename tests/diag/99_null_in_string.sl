surface test()
{
    string s = "a\0b";
    printf("%s", s);
}

/* EXPECT
99_null_in_string.sl:3:16: error: string contains a null character
    string s = "a\0b";
               ^
*/
