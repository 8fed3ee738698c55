import type { ReactNode } from 'react';

/**
 * Text a person supplied (a file name, an email, a plan or key name), isolated from the text
 * around it: on an Arabic page "195-IMG_1054.JPG · 673 KB" must not come out reordered.
 */
export function UserText({ children }: { children: ReactNode }) {
  return <bdi>{children}</bdi>;
}
