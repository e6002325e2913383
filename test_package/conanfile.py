"""Builds and runs a consumer of the devcol package: the host backend always; the CUDA backend is
built when nvcc is found and run only where a GPU answers."""
import os
import shutil
import subprocess

from conan import ConanFile
from conan.tools.build import can_run
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout


class DevcolTestPackage(ConanFile):
    settings = "os", "arch", "compiler", "build_type"
    test_type = "explicit"

    def requirements(self):
        self.requires(self.tested_reference_str)

    def layout(self):
        cmake_layout(self)

    def generate(self):
        cxx20_for_nvcc = os.path.join(self.source_folder, "nvcc_cxx20.cmake")  # for CMake's compiler checks too
        self.conf.append("tools.cmake.cmaketoolchain:user_toolchain", cxx20_for_nvcc)
        CMakeToolchain(self).generate()  # also puts devcol's package folder on CMAKE_PREFIX_PATH

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def test(self):
        if not can_run(self):
            return
        self.run(os.path.join(self.cpp.build.bindir, "test_package"), env="conanrun")
        precompiled_consumer = os.path.join(self.cpp.build.bindir, "test_package_precompiled")
        if os.path.exists(precompiled_consumer):  # the package was built with -o devcol/*:precompiled=True
            self.run(precompiled_consumer, env="conanrun")
        cuda_consumer = os.path.join(self.cpp.build.bindir, "test_package_cuda")
        if os.path.exists(cuda_consumer) and _gpu_answers():
            self.run(cuda_consumer, env="conanrun")


def _gpu_answers():
    smi = shutil.which("nvidia-smi")
    return smi is not None and subprocess.run([smi, "-L"], capture_output=True).returncode == 0
