/** The commands a user runs to install or check the host, per OS. */
import { doctorCommandFor, installCommandFor } from '../shared/install-command';

/** Install and doctor commands for `os` (chrome.runtime.PlatformOs names) and the extension `extensionId`. */
export function hostCommands(os: string, extensionId: string): { install: string; doctor: string; note?: string } {
  const install = installCommandFor(extensionId);
  const doctor = doctorCommandFor(extensionId);
  if (os === 'win') {
    return {
      install,
      doctor,
      note: 'Run them in PowerShell or cmd; the installer writes registry keys under HKCU for each browser it finds.',
    };
  }
  if (os === 'mac') {
    return {
      install,
      doctor,
      note: 'Browsers started from the Dock see a minimal PATH; the installer names node by its absolute path.',
    };
  }
  return {
    install,
    doctor,
    note: 'Flatpak and Snap browsers cannot start native hosts directly; doctor explains what to do.',
  };
}
