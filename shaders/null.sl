/* null: a surface shader that does nothing; Ci and Oi keep their values. */
surface null()
{
}
