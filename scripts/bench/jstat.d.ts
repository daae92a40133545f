// jStat ships no types; this declares the one function the benchmarks use. It is CommonJS: its
// module.exports is the jStat object, which ES modules import as the default.
declare module 'jstat' {
  const jStat: {
    studentt: {
      /** The quantile of Student's t distribution: the t below which a share `p` of it lies. */
      inv(p: number, degreesOfFreedom: number): number;
    };
  };
  export default jStat;
}
