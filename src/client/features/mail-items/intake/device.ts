/** Spec §9: a mobile device user agent, or a window narrower than 768 px. */
export function isMobileDevice(): boolean {
  if (typeof window === 'undefined') return false;
  const mobileAgent = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i.test(navigator.userAgent);
  return mobileAgent || window.innerWidth < 768;
}
